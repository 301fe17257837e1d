import Logging
import MockStack
import MockStackWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The defaults the CLI shows and falls back to: the configuration types' own, never restated.
let defaults = MockStackConfiguration()

/// What `serve` and `record` both take: where to listen, where else to write the ready line,
/// and how to log.
struct ServerOptions {
    var host: String?
    var port: Int?
    var readyFile: String?
    var logLevel: Logger.Level = .info
    var logFormat: LogFormat = .text

    static let options: [CommandOption<Self>] = [
        .value("host", \.host, help: "Address to bind (env MOCKSTACK_HOST). [default: \(defaults.host)]"),
        .value(
            "port", \.port, help: "Port to bind; 0 picks a free one (env MOCKSTACK_PORT). [default: \(defaults.port)]"),
        .value(
            "ready-file", \.readyFile, valueName: "path", help: "Also write the ready line to this file (atomically)."),
        .value("log-level", \.logLevel, help: "How much to log; info logs one line per request."),
        .value("log-format", \.logFormat, help: "One log line as text or as a JSON object."),
    ]

    func validate() throws(UsageError) {
        if let port = try resolvedPort(), !(0...65535).contains(port) {
            throw UsageError("the port must be between 0 and 65535")
        }
    }

    /// `--host`, else `MOCKSTACK_HOST`, else the default.
    var resolvedHost: String { host ?? EnvironmentVariable.value("MOCKSTACK_HOST") ?? defaults.host }

    /// `--port`, else `MOCKSTACK_PORT`, else nil (the default); a `MOCKSTACK_PORT` that is no
    /// number is refused as the option would be.
    func resolvedPort() throws(UsageError) -> Int? {
        if let port { return port }
        guard let text = EnvironmentVariable.value("MOCKSTACK_PORT"), !text.isEmpty else { return nil }
        guard let value = Int(text) else { throw UsageError("MOCKSTACK_PORT must be a number, got '\(text)'") }
        return value
    }

    /// Bootstraps swift-log at `--log-level` in `--log-format`; the logger to use.
    func bootstrapLogging() -> Logger {
        LoggingSetup.bootstrap(level: logLevel, format: logFormat)
    }

    /// Writes the ready line to `--ready-file`, then to stdout. The file first, so whoever reads
    /// the line can also read the file; the line in one write(2), unbuffered, so a parent reading
    /// the pipe sees it at once. A file that cannot be written stops `server` and ends the
    /// command with exit status 2.
    func announce(_ ready: ReadyEvent, of server: MockStackServer) throws(ExitStatus) {
        if let readyFile {
            do {
                try writeFileAtomically(ready.line, to: readyFile)
            } catch {
                printError("mockstack: cannot write --ready-file \(readyFile): \(error)")
                server.shutdown()
                throw ExitStatus(2)
            }
        }
        StandardStream.output.write(ready.line)
    }
}
