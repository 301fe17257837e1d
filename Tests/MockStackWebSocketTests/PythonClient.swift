import Foundation

/// PyPI's `websockets`, run from the project's .venv (Scripts/ensure-python-clients.sh) or
/// MOCKSTACK_PYTHON, on Tests/WebSocketClient/ws_client.py.
enum PythonClient {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/WebSocketClient/ws_client.py").path

    /// The interpreter that has `websockets`, if there is one.
    static let python: String? = {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MOCKSTACK_PYTHON"], packageRoot.appendingPathComponent(".venv/bin/python").path]
        return candidates.compactMap { $0 }.first { (path: String) -> Bool in
            FileManager.default.isExecutableFile(atPath: path) && (try? run(path, ["-c", "import websockets"]).status) == 0
        }
    }()

    /// make test sets it: a missing client is then a failure, not a skip.
    static let required = ProcessInfo.processInfo.environment["MOCKSTACK_REQUIRE_PYTHON_CLIENTS"] == "1"
    static let missingMessage = "Python's websockets client is missing: run Scripts/ensure-python-clients.sh (make test does)"

    /// Runs one scenario against `port`. - Returns: its JSON output as a string.
    static func scenario(_ name: String, port: Int) throws -> String {
        guard let python else { throw ClientError(missingMessage) }
        let result = try run(python, [script, String(port), name])
        guard result.status == 0 else { throw ClientError("ws_client.py \(name) exited \(result.status): \(result.errors)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
