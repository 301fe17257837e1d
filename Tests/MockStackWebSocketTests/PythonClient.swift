import Foundation
import TestSupport

/// PyPI's `websockets`, run from the project's .venv (Scripts/ensure-python-clients.sh) or
/// MOCKSTACK_PYTHON, on Tests/WebSocketClient/ws_client.py.
enum PythonClient {
    static let script = packageRoot.appendingPathComponent("Tests/WebSocketClient/ws_client.py").path

    /// The interpreter that has `websockets`, if there is one.
    static let python: String? = {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MOCKSTACK_PYTHON"], packageRoot.appendingPathComponent(".venv/bin/python").path]
        return candidates.compactMap { $0 }.first { (path: String) -> Bool in
            FileManager.default.isExecutableFile(atPath: path) && (try? ProcessRun.run(URL(fileURLWithPath: path), ["-c", "import websockets"]).status) == 0
        }
    }()

    /// make test sets it: a missing client is then a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PYTHON_CLIENTS"] == "1"
    static let missingMessage = "Python's websockets client is missing: run Scripts/ensure-python-clients.sh (make test does)"

    /// Runs one scenario against `port`. - Returns: its JSON output as a string.
    static func scenario(_ name: String, port: Int) throws -> String {
        guard let python else { throw ClientError(missingMessage) }
        let result = try ProcessRun.run(URL(fileURLWithPath: python), [script, String(port), name])
        guard result.status == 0 else { throw ClientError("ws_client.py \(name) exited \(result.status): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
