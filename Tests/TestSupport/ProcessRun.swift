public import Foundation
public import MockStackSpawn

/// What a program run to its end printed, and how it ended.
public struct ProcessRun: Sendable {
    /// The exit status, or the number of the signal that ended it.
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable` with `arguments` to its end, `environment` laid over this process's.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        let (termination, output, errors) = try ChildProcess.run(executable.path, arguments, environment: merged(environment))
        return ProcessRun(status: termination.status, stdout: String(decoding: output, as: UTF8.self),
                          stderr: String(decoding: errors, as: UTF8.self))
    }

    /// Starts `executable` with `arguments`, `environment` laid over this process's, its output
    /// and errors on pipes the caller reads.
    public static func start(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                             input: ChildProcess.Input = .inherited) throws -> ChildProcess {
        try ChildProcess(executable.path, arguments, environment: merged(environment), input: input)
    }

    /// This process's environment with `environment` laid over it; the load cache off unless
    /// the caller names a folder, so that no test reads or writes the user's cache.
    private static func merged(_ environment: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["MOCKSTACK_CACHE_DIR": "off"]) { _, new in new }.merging(environment) { _, new in new }
    }
}
