import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MockStack
import MockStackCore
import MockStackTransport

/// `mockstack serve`: load the fixtures, listen, announce readiness, serve until SIGINT/SIGTERM.
struct Serve: ParsableCommand {
    // `_superCommandName`: `mockstack` when `serve` is parsed as its own root (MockStackCommand's
    // `parsedServe`), which also spares that parse the two extra passes that look for
    // `--generate-completion-script` (a root-only option; the whole way from the root still
    // takes it). Parsed from the root, as for help, nothing changes.
    static let configuration = CommandConfiguration(
        commandName: "serve",
        _superCommandName: "mockstack",
        abstract: "Serve every app in the fixtures folder.",
        discussion: """
            Once the fixtures are loaded and the port accepts, the first line on stdout is one JSON object, the ready line: {"event":"listening","port":54321,"url":…,"apps":{…},"version":…}. Logs go to stderr.

            SIGINT or SIGTERM stops accepting, finishes the replies in flight and exits 0. Exit status 2: a fixture is broken, a folder or option is wrong, or a port cannot be bound.

            Environment fallbacks: MOCKSTACK_HOST, MOCKSTACK_PORT, MOCKSTACK_FIXTURES, MOCKSTACK_APPS, MOCKSTACK_ADMIN_TOKEN.

            Bound to anything but loopback, the control plane (/__mockstack/, health aside) answers only requests that carry the admin token (X-MockStack-Admin-Token: T, or Authorization: Bearer T); without --admin-token one is made at start-up and logged.
            """
    )

    @Option(help: "Address to bind (env MOCKSTACK_HOST). [default: 127.0.0.1]")
    var host: String?

    @Option(help: ArgumentHelp("Token the control plane requires (env MOCKSTACK_ADMIN_TOKEN); required by default off loopback.", valueName: "token"))
    var adminToken: String?

    @Option(help: "Port to bind; 0 picks a free one (env MOCKSTACK_PORT). [default: 0]")
    var port: Int?

    @Option(help: ArgumentHelp("Fixtures folder; repeatable, later folders win on an app folder's name; 'shipped' is the shipped apps' (env MOCKSTACK_FIXTURES, folders separated by ':'). [default: shipped]", valueName: "folder"))
    var fixtures: [String] = []

    @Option(help: ArgumentHelp("Also write the ready line to this file (atomically).", valueName: "path"))
    var readyFile: String?

    @Option(help: "Event-loop threads (SO_REUSEPORT when more than one).")
    var threads: Int = 1

    @Option(help: ArgumentHelp("Load only these app folders, comma-separated (env MOCKSTACK_APPS); all by default.", valueName: "names"))
    var apps: String?

    @Option(help: ArgumentHelp("Date every generated DTO file (/types/swift) at this ISO-8601 time, for golden files.", valueName: "date"))
    var fixedDate: String?

    @Option(help: ArgumentHelp("Also serve APP at the root of PORT (repeatable), for clients that cannot carry a base path.", valueName: "app=port"))
    var expose: [Exposure] = []

    @Option(help: "Largest request body in bytes (413 above).")
    var maxBodyBytes: Int = TransportConfiguration().maxBodyBytes

    @Option(help: "Largest request line plus headers in bytes (431 above).")
    var maxHeaderBytes: Int = TransportConfiguration().maxHeaderBytes

    @Option(help: "Seconds a connection may idle, or take to send a whole request from its first byte.")
    var timeout: Int = TransportConfiguration().timeoutSeconds

    @Option(help: "Requests the journal keeps for GET /__mockstack/requests (0: no journal).")
    var journalSize: Int = 1000

    @Option(help: "Bytes of each request body the journal keeps.")
    var journalBodyBytes: Int = 16 * 1024

    @Flag(help: "Reload an app when its fixtures change; a broken edit is reported and the last good version keeps serving.")
    var watch = false

    @Flag(help: "Stop as on SIGTERM when standard input reaches its end: a parent that holds the pipe's other end (a test process) takes the server with it when it exits, even killed.")
    var stopOnStdinEof = false

    @Option(help: "Seed for random delays (X-MockStack-Delay: 100-500, a stub's delayMs range).")
    var seed: UInt64 = 0

    @Option(help: "Sessions (/__session/{id}/…) kept at once; past it the least recently used goes.")
    var maxSessions: Int = 256

    @Option(help: ArgumentHelp("Forward what no app or stub answers to this server, journaled as proxied.", valueName: "url"))
    var proxyUnmatched: String?

    @Option(help: "Seconds the --proxy-unmatched server may take, silent or in all, before the client gets a 502.")
    var proxyTimeout: Int = 30

    @Option(help: "How much to log; info logs one line per request.")
    var logLevel: Logger.Level = .info

    @Option(help: "One log line as text or as a JSON object.")
    var logFormat: LogFormat = .text

    func validate() throws {
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be between 1 and 64") }
        guard maxBodyBytes > 0, maxHeaderBytes >= 256 else { throw ValidationError("--max-body-bytes must be positive and --max-header-bytes at least 256") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard (0...1_000_000).contains(journalSize), (0...(64 << 20)).contains(journalBodyBytes) else {
            throw ValidationError("--journal-size must be 0 to 1,000,000 and --journal-body-bytes 0 to 64 MiB")
        }
        guard (1...100_000).contains(maxSessions) else { throw ValidationError("--max-sessions must be 1 to 100,000") }
        if let port = try resolvedPort(), !(0...65535).contains(port) { throw ValidationError("the port must be between 0 and 65535") }
        guard (1...600).contains(proxyTimeout) else { throw ValidationError("--proxy-timeout must be 1 to 600 seconds") }
        if let proxyUnmatched {
            do { _ = try UpstreamTarget(parsing: proxyUnmatched) } catch { throw ValidationError("--proxy-unmatched \(error.message)") }
        }
    }

    func run() throws {
        let logger = LoggingSetup.bootstrap(level: logLevel, format: logFormat)
        let environment = ProcessInfo.processInfo.environment
        let fromEnvironment = fixtures.isEmpty && environment["MOCKSTACK_FIXTURES"] != nil
        let folders = try fixtureFolders(fromEnvironment ? fixturePaths(fromEnvironment: environment["MOCKSTACK_FIXTURES"]) : fixtures,
                                         givenAs: fromEnvironment ? "MOCKSTACK_FIXTURES" : "--fixtures")
        var configuration = MockStackConfiguration(
            host: host ?? environment["MOCKSTACK_HOST"] ?? "127.0.0.1",
            port: try resolvedPort() ?? 0,
            fixtures: folders.folders,
            exposed: expose.map { (app: $0.app, port: $0.port) },
            apps: (apps ?? environment["MOCKSTACK_APPS"]).map { $0.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty } }
        )
        configuration.version = MockStackVersion.description(commit: buildCommit)
        configuration.fixedDate = fixedDate
        configuration.journalSize = journalSize
        configuration.journalBodyBytes = journalBodyBytes
        configuration.watchesFixtures = watch
        configuration.seed = seed
        configuration.maxSessions = maxSessions
        configuration.proxyUnmatched = try proxyUnmatched.map { try UpstreamTarget(parsing: $0) }
        configuration.proxyTimeoutSeconds = proxyTimeout
        configuration.proxyLibcurl = UpstreamLibrary.chosen(environment)
        if configuration.proxyUnmatched != nil { try UpstreamLibrary.open(configuration.proxyLibcurl, for: "--proxy-unmatched") }
        configuration.adminToken = adminToken ?? environment["MOCKSTACK_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.transport = TransportConfiguration(
            threads: threads, maxBodyBytes: maxBodyBytes, maxHeaderBytes: maxHeaderBytes,
            timeoutSeconds: timeout, handlesSignals: true, logger: logger
        )
        configuration.transport.stopsAtEndOfInput = stopOnStdinEof ? 0 : nil

        let openFiles = OpenFileLimit.raise()
        logger.debug("open-file limit \(openFiles)")

        let server: MockStackServer
        do {
            server = try Allocator.loading { try MockStackServer(configuration: configuration) }
        } catch let errors as FixtureErrors {
            printFixtureProblems(errors, ending: "not starting")
            throw ExitCode(2)
        } catch {
            printError("mockstack: \(error)")
            throw ExitCode(2)
        }

        let ready: ReadyEvent
        do {
            ready = try server.start()
        } catch {
            printError("mockstack: \(error.message)")
            throw ExitCode(2)
        }
        let line = ready.line
        if let readyFile {
            do {
                try writeFileAtomically(line, to: readyFile)
            } catch {
                printError("mockstack: cannot write --ready-file \(readyFile): \(error)")
                server.shutdown()
                throw ExitCode(2)
            }
        }
        // The file first, so whoever reads the line can also read the file. One write(2),
        // unbuffered, so a parent reading the pipe sees it at once.
        StandardStream.output.write(line)
        logger.notice("mockstack \(MockStackVersion.description(commit: buildCommit)) serving \(ready.apps.map { "\($0.name) at \(ready.url)\($0.mount)" }.joined(separator: ", "))")
        announceAdminAccess(of: server, url: ready.url, logger: logger)
        logger.debug("allocator: \(Allocator.description)")
        server.wait()
        logger.notice("mockstack stopped")
    }

    /// Says at start-up whether the control plane needs a token, and shows one made here.
    private func announceAdminAccess(of server: MockStackServer, url: String, logger: Logger) {
        guard case .token(let token) = server.adminAccess else { return }
        let host = server.configuration.host
        guard server.adminTokenWasGenerated else {
            logger.notice("the control plane (\(url)/__mockstack/) requires the admin token given with --admin-token or MOCKSTACK_ADMIN_TOKEN")
            return
        }
        let message: Logger.Message = """
            bound to \(host), not loopback: the control plane requires an admin token, and none was given, so this one was made: \(token) \
            — send it as \(AdminToken.header) or Authorization: Bearer; the control page is \(url)/__mockstack/#token=\(token); \
            set --admin-token or MOCKSTACK_ADMIN_TOKEN to choose it
            """
        logger.warning(message)
        // A log level above warning must not hide the only way in.
        if logLevel > .warning { printError("mockstack: \(message)") }
    }

    private func resolvedPort() throws -> Int? {
        if let port { return port }
        guard let text = ProcessInfo.processInfo.environment["MOCKSTACK_PORT"], !text.isEmpty else { return nil }
        guard let value = Int(text) else { throw ValidationError("MOCKSTACK_PORT must be a number, got '\(text)'") }
        return value
    }
}

/// `APP=PORT` for `--expose`.
struct Exposure: ExpressibleByArgument {
    var app: String
    var port: Int

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, let port = Int(parts[1]), (0...65535).contains(port) else { return nil }
        app = String(parts[0])
        self.port = port
    }
}

