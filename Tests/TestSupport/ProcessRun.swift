public import Foundation

/// What a program run to its end printed, and how it ended.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable` with `arguments` to its end, `environment` laid over this process's.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        let (process, out, err) = try start(executable, arguments, environment: environment)
        // Both pipes are read before waiting, so a child filling one cannot block on it.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Starts `executable` with `arguments`, `environment` laid over this process's, its output
    /// and errors on pipes the caller reads.
    public static func start(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }
}

extension FileHandle {
    /// Bytes up to the first newline (or the end), read as they arrive: a spawned server's
    /// ready line.
    public func readLine() -> Data {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return line
    }
}
