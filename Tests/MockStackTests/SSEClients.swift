import Foundation
import TestSupport

/// PyPI's sseclient-py from .venv (Scripts/ensure-python-clients.sh; or MOCKSTACK_PYTHON), running
/// a scenario of Tests/SSEClient/sse_client.py against a ServiceStack app's Server Events.
enum SSEClients {
    static let script = packageRoot.appendingPathComponent("Tests/SSEClient/sse_client.py").path

    /// The interpreter with sseclient-py, if there is one.
    static let python: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["MOCKSTACK_PYTHON"],
            packageRoot.appendingPathComponent(".venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { path in
            FileManager.default.isExecutableFile(atPath: path)
                && (try? ProcessRun.run(URL(fileURLWithPath: path), ["-c", "import sseclient, requests"]).status) == 0
        }
    }()

    /// make test sets it: a missing client is then a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PYTHON_CLIENTS"] == "1"
    static let available = python != nil
    static let missingMessage = "sseclient-py (.venv) is missing: run Scripts/ensure-python-clients.sh (make test does)"

    /// Runs one scenario against the app at `appURL` (`http://127.0.0.1:PORT/test`).
    /// - Returns: its JSON output, keys sorted.
    static func run(appURL: String, scenario: String) throws -> String {
        guard let python else { throw SocketIOClients.ClientError(missingMessage) }
        let result = try ProcessRun.run(URL(fileURLWithPath: python), [script, appURL, scenario])
        guard result.status == 0 else {
            throw SocketIOClients.ClientError("sse_client.py \(scenario) exited \(result.status): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
