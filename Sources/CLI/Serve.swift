import Logging
import MockStack
import MockStackCore
import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack serve`: load the fixtures, listen, announce readiness, serve until SIGINT/SIGTERM.
struct Serve: Subcommand {
    static let name = "serve"
    static let abstract = "Serve every app in the fixtures folder."
    static let discussion = """
        Once the fixtures are loaded and the port accepts, the first line on stdout is one JSON object, the ready line: {"event":"listening","port":54321,"url":…,"apps":{…},"version":…}. Logs go to stderr.

        SIGINT or SIGTERM stops accepting, finishes the replies in flight and exits 0. Exit status 2: a fixture is broken, a folder or option is wrong, or a port cannot be bound.

        Environment fallbacks: MOCKSTACK_HOST, MOCKSTACK_PORT, MOCKSTACK_FIXTURES, MOCKSTACK_APPS, MOCKSTACK_ADMIN_TOKEN.

        The load cache: after a full load, a record of the fixture bytes it checked is kept in MOCKSTACK_CACHE_DIR (else $XDG_CACHE_HOME/mockstack, else ~/.cache/mockstack; 'off': none); a later start on the same bytes skips the checks and builds the ServiceStack apps at their first use.

        The control plane is under /__mockstack/: its page (open it in a browser) shows the request journal live, and its JSON API resets apps, reads the journal, sets stubs, faults and scenarios (README.md, Control plane).

        Bound to anything but loopback, the control plane (/__mockstack/, health aside) answers only requests that carry the admin token (X-MockStack-Admin-Token: T, or Authorization: Bearer T); without --admin-token one is made at start-up and logged.
        """

    static let arguments: CommandArguments<Self>? = nil

    var serverOptions = ServerOptions()
    var adminToken: String?
    var fixtures = FixturesOption()
    var threads = defaults.transport.threads
    var apps: String?
    var fixedDate: String?
    var expose: [Exposure] = []
    var maxBodyBytes = defaults.transport.maxBodyBytes
    var maxHeaderBytes = defaults.transport.maxHeaderBytes
    var timeout = defaults.transport.timeoutSeconds
    var journalSize = defaults.journalSize
    var journalBodyBytes = defaults.journalBodyBytes
    var stubs: [String] = []
    var watch = false
    var noLoadCache = false
    var stopOnStdinEof = false
    var seed = defaults.seed
    var maxSessions = defaults.maxSessions
    var proxyUnmatched: String?
    var proxyTimeout = defaults.proxyTimeoutSeconds
    var tls = TLSOptions()

    static let options: [CommandOption<Self>] =
        ServerOptions.options.map { $0.lifted(into: \Self.serverOptions) }
        + [
            .value(
                "admin-token", \.adminToken, valueName: "token",
                help: "Token the control plane requires (env MOCKSTACK_ADMIN_TOKEN); required by default off loopback.")
        ]
        + FixturesOption.options.map { $0.lifted(into: \Self.fixtures) }
        + [
            .value("threads", \.threads, help: "Event-loop threads (SO_REUSEPORT when more than one)."),
            .value(
                "apps", \.apps, valueName: "names",
                help: "Load only these app folders, comma-separated (env MOCKSTACK_APPS); all by default."),
            .value(
                "fixed-date", \.fixedDate, valueName: "date",
                help: "Date every generated DTO file (/types/swift) at this ISO-8601 time, for golden files."),
            .repeating(
                "expose", \.expose, valueName: "app=port",
                help: "Also serve APP at the root of PORT (repeatable), for clients that cannot carry a base path."),
            .value("max-body-bytes", \.maxBodyBytes, help: "Largest request body in bytes (413 above)."),
            .value(
                "max-header-bytes", \.maxHeaderBytes, help: "Largest request line plus headers in bytes (431 above)."),
            .value(
                "timeout", \.timeout,
                help: "Seconds a connection may idle, or take to send a whole request from its first byte."),
            .value(
                "journal-size", \.journalSize,
                help: "Requests the journal keeps for GET /__mockstack/requests (0: no journal)."),
            .value("journal-body-bytes", \.journalBodyBytes, help: "Bytes of each request body the journal keeps."),
            .repeating(
                "stubs", \.stubs, valueName: "dir",
                help: """
                    Load the stubs in this folder's *.json files (repeatable), checked before start-up; a whole reset \
                    puts them back.
                    """),
            .flag(
                "watch", \.watch,
                help: """
                    Reload an app when its fixtures change, and the stubs when their files do; a broken edit is \
                    reported and the last good version keeps serving.
                    """),
            .flag(
                "no-load-cache", \.noLoadCache,
                help: """
                    Load and check every fixture at start-up, without the load cache (docs/load-cache.md): no record \
                    read or written.
                    """),
            .flag(
                "stop-on-stdin-eof", \.stopOnStdinEof,
                help: """
                    Stop as on SIGTERM when standard input reaches its end: a parent that holds the pipe's other end \
                    (a test process) takes the server with it when it exits, even killed.
                    """),
            .value(
                "seed", \.seed, help: "Seed for random delays (X-MockStack-Delay: 100-500, a stub's delayMs range)."),
            .value(
                "max-sessions", \.maxSessions,
                help: "Sessions (/__session/{id}/…) kept at once; past it the least recently used goes."),
            .value(
                "proxy-unmatched", \.proxyUnmatched, valueName: "url",
                help: "Forward what no app or stub answers to this server, journaled as proxied."),
            .value(
                "proxy-timeout", \.proxyTimeout,
                help: "Seconds the --proxy-unmatched server may take, silent or in all, before the client gets a 502."),
        ]
        + TLSOptions.options.map { $0.lifted(into: \Self.tls) }

    func validate() throws(UsageError) {
        try serverOptions.validate()
        guard (1...64).contains(threads) else { throw UsageError("--threads must be between 1 and 64") }
        guard maxBodyBytes > 0, maxHeaderBytes >= 256 else {
            throw UsageError("--max-body-bytes must be positive and --max-header-bytes at least 256")
        }
        guard timeout > 0 else { throw UsageError("--timeout must be positive") }
        guard (0...1_000_000).contains(journalSize), (0...(64 << 20)).contains(journalBodyBytes) else {
            throw UsageError("--journal-size must be 0 to 1,000,000 and --journal-body-bytes 0 to 64 MiB")
        }
        guard (1...100_000).contains(maxSessions) else { throw UsageError("--max-sessions must be 1 to 100,000") }
        guard (1...600).contains(proxyTimeout) else { throw UsageError("--proxy-timeout must be 1 to 600 seconds") }
        try tls.validate()
        if let proxyUnmatched {
            do { _ = try UpstreamTarget(parsing: proxyUnmatched) } catch {
                throw UsageError("--proxy-unmatched \(error.message)")
            }
        }
    }

    func run() throws {
        try tls.checkCombination()
        let logger = serverOptions.bootstrapLogging()
        let configuration = try assembledConfiguration(logger: logger)
        // Raised before it is logged: a log message is only evaluated at its level.
        let openFiles = OpenFileLimit.raise()
        logger.debug("open-file limit \(openFiles)")
        let (running, ready) = try startedServer(configuration)
        try tls.writeAuthority(of: running)
        try serverOptions.announce(ready, of: running)
        logger.notice(
            """
            mockstack \(configuration.version) serving \
            \(ready.apps.map { "\($0.name) at \(ready.url)\($0.mount)" }.joined(separator: ", ")); \
            control page and API at \(ready.url)/__mockstack/
            """
        )
        announceAdminAccess(of: running, url: ready.url, logger: logger)
        logger.debug("allocator: \(Allocator.description)")
        running.wait()
        logger.notice("mockstack stopped")
    }

    /// The server loaded from `configuration` and listening, with its ready event. Broken
    /// fixtures are printed one line each, any other failure in one line; both end the command
    /// with exit status 2.
    private func startedServer(
        _ configuration: MockStackConfiguration
    ) throws(ExitStatus) -> (MockStackServer, ReadyEvent) {
        let server = try loadedOrExit(ending: "not starting") {
            try Allocator.loading { try MockStackServer(configuration: configuration) }
        }
        do {
            return (server, try server.start())
        } catch {
            printError("mockstack: \(error.message)")
            throw ExitStatus(2)
        }
    }

    /// Says at start-up whether the control plane needs a token, and shows one made here.
    private func announceAdminAccess(of running: MockStackServer, url: String, logger: Logger) {
        guard case .token(let token) = running.adminAccess else { return }
        let host = running.configuration.host
        guard running.adminTokenWasGenerated else {
            logger.notice(
                """
                the control plane (\(url)/__mockstack/) requires the admin token given with --admin-token or \
                MOCKSTACK_ADMIN_TOKEN
                """
            )
            return
        }
        let message: Logger.Message = """
            bound to \(host), not loopback: the control plane requires an admin token, and none was given, so this one was made: \(token) \
            — send it as \(AdminToken.header) or Authorization: Bearer; the control page is \(url)/__mockstack/#token=\(token); \
            set --admin-token or MOCKSTACK_ADMIN_TOKEN to choose it
            """
        logger.warning(message)
        // A log level above warning must not hide the only way in.
        if serverOptions.logLevel > .warning { printError("mockstack: \(message)") }
    }
}

/// `APP=PORT` for `--expose`.
struct Exposure: CommandLineValue {
    var app: String
    var port: Int

    init?(commandLineWord argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, let port = Int(parts[1]), (0...65535).contains(port) else {
            return nil
        }
        app = String(parts[0])
        self.port = port
    }

    var commandLineWord: String { "\(app)=\(port)" }
    static var expectation: String { "APP=PORT, a port from 0 to 65535" }
}
