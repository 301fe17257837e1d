import Foundation
import TestSupport

/// PyPI's python-socketio, in the two releases Feathers clients speak: 5 (Engine.IO 4) from .venv
/// and 4.6 (Engine.IO 3) from .venv-eio3 (Scripts/ensure-python-clients.sh; or MOCKSTACK_PYTHON and
/// MOCKSTACK_PYTHON_EIO3), each running a scenario of Tests/SocketIOClient/sio_client.py.
enum SocketIOClients {
    static let script = packageRoot.appendingPathComponent("Tests/SocketIOClient/sio_client.py").path

    /// The interpreter with python-socketio 5, if there is one.
    static let release5 = interpreter(variable: "MOCKSTACK_PYTHON", venv: ".venv", major: "5")
    /// The interpreter with python-socketio 4, if there is one.
    static let release4 = interpreter(variable: "MOCKSTACK_PYTHON_EIO3", venv: ".venv-eio3", major: "4")

    /// make test sets it: a missing client is then a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PYTHON_CLIENTS"] == "1"
    static let available = release5 != nil && release4 != nil
    static let missingMessage = "python-socketio 5 (.venv) or 4.6 (.venv-eio3) is missing: run Scripts/ensure-python-clients.sh (make test does)"

    private static func interpreter(variable: String, venv: String, major: String) -> String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment[variable], packageRoot.appendingPathComponent(venv + "/bin/python").path]
        let check = "import sys, importlib.metadata as m; sys.exit(m.version('python-socketio').split('.')[0] != '\(major)')"
        return candidates.compactMap { $0 }.first { path in
            FileManager.default.isExecutableFile(atPath: path) && (try? ProcessRun.run(URL(fileURLWithPath: path), ["-c", check]).status) == 0
        }
    }

    /// Runs one scenario against the Engine.IO endpoint at `path` of the server at `origin`.
    /// - Returns: its JSON output, keys sorted.
    static func run(_ python: String?, origin: String, path: String, scenario: String, transports: String) throws -> String {
        guard let python else { throw ClientError(missingMessage) }
        let result = try ProcessRun.run(URL(fileURLWithPath: python), [script, origin, path, scenario, transports])
        guard result.status == 0 else { throw ClientError("sio_client.py \(scenario) exited \(result.status): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
