import Logging
import MockStack
import MockStackCore
import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack record`: a proxy whose root stands for the target, writing what comes back into
/// an app folder `serve` answers from.
struct Record: Subcommand {
    static let name = "record"
    static let abstract = "Proxy a live server and keep its answers as an app folder."
    static let discussion = """
        Every request to the recorder goes to the target (its root stands for the target URL: {recorder}/api/Hello goes to {target}/api/Hello), and every answer is written into OUT/APP before the client gets it: ServiceStack metadata and per-request answers, Feathers services with seed records and pagination, or static routes byte for byte. Secrets (Authorization, cookies, API keys, tokens in JSON bodies) are left out or masked unless --keep-secrets is given.

        The first stdout line is the ready line, as serve's. SIGINT or SIGTERM stops it; the last stdout line is then {"event":"recorded","app",…,"answers":N,"conflicts":[…]}. Recording into a folder that holds the app already merges; an answer that differs from the one kept is a conflict: the kept one stays, and the conflict is logged and listed.

        Exit status 2: the target is not an http(s) URL or does not answer, OUT is a file, the folder holds an app of another kind, or the port cannot be bound.
        """

    static let arguments: CommandArguments<Self>? = nil

    var target = ""
    var out = ""
    var app = "recorded"
    var kind = RecordingKind.auto
    var keepSecrets = false
    var serverOptions = ServerOptions()
    var timeout = defaults.proxyTimeoutSeconds

    static let options: [CommandOption<Self>] =
        [
            .value(
                "target", \.target, valueName: "url", required: true,
                help: "The server to record: http(s)://host[:port][/base]."),
            .value(
                "out", \.out, valueName: "folder", required: true,
                help: "The fixtures folder the app folder is written in (made if missing)."),
            .value("app", \.app, valueName: "name", help: "The app's name: its folder, and the mount serve gives it."),
            .value(
                "kind", \.kind,
                help: """
                    What the app folder holds: servicestack, feathers, static, or auto (servicestack when the target \
                    answers /types/metadata, else static; an existing app's kind).
                    """),
            .flag(
                "keep-secrets", \.keepSecrets,
                help: """
                    Keep Authorization, cookies, API keys and tokens as they came instead of leaving them out or \
                    masking them.
                    """),
        ]
        + ServerOptions.options.map { $0.lifted(into: \Self.serverOptions) }
        + [
            .value(
                "timeout", \.timeout,
                help: "Seconds the target may take, silent or in all, before the client gets a 502.")
        ]

    func validate() throws(UsageError) {
        try serverOptions.validate()
        do {
            _ = try UpstreamTarget(parsing: target)
        } catch {
            throw UsageError("--target \(error.message)")
        }
        guard (1...600).contains(timeout) else { throw UsageError("--timeout must be 1 to 600 seconds") }
    }

    func run() throws {
        let logger = serverOptions.bootstrapLogging()
        let upstream = try UpstreamTarget(parsing: target)
        let library = UpstreamLibrary.chosen(EnvironmentVariable.value(UpstreamLibrary.environmentName))
        try UpstreamLibrary.open(library, for: "record")
        let recorder: Recorder
        do {
            recorder = try Recorder(
                out: URL(fileURLWithPath: out), appName: app, kind: kind,
                client: UpstreamClient(target: upstream, timeoutSeconds: timeout, library: library),
                masking: SecretMasking(masks: !keepSecrets))
        } catch {
            printError("mockstack: \(error.message)")
            throw ExitStatus(2)
        }
        var configuration = MockStackConfiguration(
            host: serverOptions.resolvedHost, port: try serverOptions.resolvedPort() ?? defaults.port)
        configuration.version = MockStackVersion.description(commit: buildCommit)
        configuration.loadsApps = false
        configuration.proxyUnmatched = upstream
        configuration.proxyTimeoutSeconds = timeout
        configuration.proxyLibcurl = library
        configuration.proxyObserver = { request, response in
            for conflict in recorder.record(request, response) { logger.warning("record: conflict: \(conflict)") }
        }
        configuration.transport = TransportConfiguration(handlesSignals: true, logger: logger)
        let running: MockStackServer
        let ready: ReadyEvent
        do {
            running = try MockStackServer(configuration: configuration)
            ready = try running.start()
        } catch {
            printError("mockstack: \(error)")
            throw ExitStatus(2)
        }
        try serverOptions.announce(ready, of: running)
        logger.notice(
            "mockstack recording \(upstream) at \(ready.url) into \(recorder.folder.path) (\(recorder.kind.rawValue))")
        running.wait()
        StandardStream.output.write(recorder.summary.jsonText + "\n")
        logger.notice("mockstack stopped recording")
    }
}
