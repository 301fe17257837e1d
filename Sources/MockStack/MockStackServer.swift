import Dispatch
import Logging
public import MockStackControl
public import MockStackCore
import MockStackProxy
import MockStackServiceStack
public import MockStackTransport
import MockStackUpstream
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The whole server: apps loaded from fixtures, mounted under their prefixes next to the
/// control plane, served by the libevent transport. The CLI, the Docker image and
/// `MockStackTesting`'s in-process mode all run this.
///
/// ```swift
/// let server = try MockStackServer(configuration: .init(fixtures: [url]))
/// let ready = try server.start()
/// // … ready.url(for: "example") …
/// server.shutdown()
/// ```
public final class MockStackServer: Sendable {
    public let configuration: MockStackConfiguration
    /// The apps being served, in load order (``reload(app:)`` may swap one); after a load cache
    /// hit, those not built yet are built now.
    public var apps: [any MockApp] { registry.apps }
    /// The fixtures folders the apps came from, later ones winning on an app folder's name.
    public let fixtureFolders: FixtureFolders
    private let transport: HTTPServer
    let registry: AppRegistry
    private let sessions: SessionStore
    private let watcher: FixtureWatcher?
    /// The stubs kept in files, with `--stubs`.
    private let stubFolders: StubFolders?
    private let exposedPorts = LockedValue<[String: Int]>([:])
    /// The app folders `--apps` left out (``ReadyEvent/notLoaded``).
    private let notLoaded: [String]
    /// How the control plane is guarded (``AdminAccess``): open on loopback, else a token.
    public let adminAccess: AdminAccess
    /// Whether ``adminAccess``'s token was made at start-up (none was configured), so whoever
    /// starts the server must show it.
    public let adminTokenWasGenerated: Bool
    /// The HTTPS port's TLS, with ``MockStackConfiguration/httpsPort``.
    public let tls: TLSContext?

    /// Loads and checks every fixture; nothing listens yet.
    /// - Throws: ``FixtureErrors`` with every mistake found, or ``MockStackError`` when the
    ///   shipped fixtures folder (when none is given) or an exposed app cannot be found.
    public init(configuration: MockStackConfiguration, loader: AppLoader? = nil) throws {
        // Only the standard kinds' load is known to depend on nothing but the cache's key.
        let cache = loader == nil ? configuration.loadCacheFolder.map(LoadCache.init) : nil
        let loader = loader ?? .standard(typesDate: configuration.fixedDate)
        try FixedDate.check(configuration.fixedDate)
        let folders: [URL]
        if !configuration.loadsApps {
            folders = []
        } else if configuration.fixtures.isEmpty {
            guard let shipped = FixturesLocator.shippedFixtures() else {
                throw MockStackError("no fixtures folder: pass --fixtures DIR or set MOCKSTACK_FIXTURES")
            }
            folders = [shipped]
        } else {
            folders = configuration.fixtures
        }
        self.configuration = configuration
        fixtureFolders = FixtureFolders(folders)
        // Listed once: the apps load from it, and stubs read their bodyFile through it.
        let everything = try fixtureFolders.source()
        let loaded =
            configuration.loadsApps
            ? try Self.load(
                loader: loader, cache: cache, fixtures: fixtureFolders.sourceOnDisk(forOneLoad: true), folders: folders,
                configuration: configuration)
            : LoadCache.Outcome(apps: [], note: "")
        let apps = loaded.apps
        let notLoaded =
            configuration.apps == nil
            ? []
            : ((try? AppLoader.appFolders(in: everything)) ?? []).filter { folder in
                !apps.contains { $0.name == folder }
            }
        self.notLoaded = notLoaded
        // The sockets' activity: the apps report to it as they start being served.
        let realtime = RealtimeJournal(capacity: configuration.journalSize, valueLimit: configuration.journalBodyBytes)
        registry = AppRegistry(mounted: apps) { app in RealtimeJournal.observe(app, into: realtime) }
        let stubs = StubStore(
            files: everything, seed: configuration.seed, templateLimit: configuration.transport.maxBodyBytes)
        if configuration.stubFolders.isEmpty {
            stubFolders = nil
        } else {
            for folder in configuration.stubFolders where FileStatus(path: folder.path)?.kind != .directory {
                throw MockStackError("--stubs \(folder.relativePath): no such folder")
            }
            let folders = StubFolders(configuration.stubFolders, stubs: stubs, logger: configuration.logger)
            try folders.load()
            stubFolders = folders
        }
        sessions = SessionStore(
            limit: configuration.maxSessions, journalCapacity: configuration.journalSize,
            journalBodyLimit: configuration.journalBodyBytes, seed: configuration.seed, stubs: stubs, realtime: realtime
        )
        let watcher =
            configuration.watchesFixtures
            ? FixtureWatcher(
                folders: fixtureFolders, apps: configuration.apps, loader: loader, registry: registry,
                sessions: sessions,
                logger: configuration.logger)
            : nil
        self.watcher = watcher

        let portsBox = exposedPorts
        let journal = RequestJournal(capacity: configuration.journalSize, bodyLimit: configuration.journalBodyBytes)
        let faults = RequestFaults(seed: configuration.seed)
        let pipeline = AppPipeline(
            journal: journal, stubs: stubs, faults: faults, fallThrough: Self.fallThrough(configuration),
            stubProxy: Self.stubProxy(configuration))
        (adminAccess, adminTokenWasGenerated) = AdminAccess.forBinding(
            host: configuration.host, token: configuration.adminToken)
        do {
            tls = try configuration.httpsPort.map { _ throws(TLSUnavailable) in
                try TLSContext(configuration.tlsCertificate)
            }
        } catch {
            throw MockStackError("--https-port: \(error)")
        }
        let controlPlane = ControlPlane(
            registry: registry, journal: journal, stubs: stubs, sessions: sessions, faults: faults, access: adminAccess,
            exposedPorts: { portsBox.value }, lastReload: { watcher?.lastOutcome }, realtime: realtime,
            notLoaded: notLoaded, certificateAuthority: tls?.authorityPEM)
        let root = RootResponder(
            controlPlane: controlPlane, registry: registry, sessions: sessions, pipeline: pipeline, access: adminAccess)
        // A responder for each loop, so that each reads the registry through its own snapshot.
        var listeners = [ListenerSpec(label: "main", port: configuration.port, responderForLoop: { root.forLoop() })]
        for exposure in configuration.exposed {
            guard apps.contains(where: { $0.name == exposure.app }) else {
                throw MockStackError(
                    """
                    --expose \(exposure.app)=\(exposure.port): no app named '\(exposure.app)' (apps: \
                    \(apps.map(\.name).joined(separator: ", ")))
                    """
                )
            }
            let exposed = ExposedAppResponder(appName: exposure.app, registry: registry, pipeline: pipeline)
            listeners.append(
                ListenerSpec(label: exposure.app, port: exposure.port, responderForLoop: { exposed.forLoop() }))
        }
        // Last, after the exposed apps' ports: the main port's twin over TLS.
        if let tls, let httpsPort = configuration.httpsPort {
            listeners.append(
                ListenerSpec(label: Self.httpsLabel, port: httpsPort, tls: tls, responderForLoop: { root.forLoop() }))
        }
        var transportConfiguration = configuration.transport
        transportConfiguration.host = configuration.host
        transport = HTTPServer(configuration: transportConfiguration, listeners: listeners)
    }

    deinit {
        watcher?.stop()
        stubFolders?.stop()
    }

    /// The apps, through the load cache when there is one.
    private static func load(
        loader: AppLoader, cache: LoadCache?, fixtures: (source: any FixtureSource, files: FixtureFiles),
        folders: [URL],
        configuration: MockStackConfiguration
    ) throws(FixtureErrors) -> LoadCache.Outcome {
        let source = try FixtureFolders.narrowed(fixtures.source, to: configuration.apps)
        let logger = configuration.logger
        guard let cache else {
            if configuration.loadCacheFolder == nil { logger.debug("load cache: off") }
            return LoadCache.Outcome(apps: try loader.load(from: source).map(MountedApp.built), note: "off")
        }
        let key = LoadCacheKey(
            version: configuration.version, folders: folders, apps: configuration.apps,
            fixedDate: configuration.fixedDate)
        // A hit's app is built after the ready line from the files then, each checked against the
        // record: one edited since start-up is refused, and its app answers 500s; the log says why.
        let outcome = try cache.load(
            loader: loader, source: source, files: fixtures.files, key: key, unavailable: AppLoader.unavailable
        ) { app, errors in
            for diagnostic in errors.diagnostics { logger.error("app \(app) could not be built: \(diagnostic)") }
        }
        logger.debug("load cache: \(outcome.note)")
        return outcome
    }

    /// `--proxy-unmatched`'s forwarding: each request to the upstream over ``UpstreamClient``,
    /// its answer shown to the observer (the recorder) and then sent; a failure is a 502.
    /// libcurl is opened here, at start: without it the server still serves its apps, says so
    /// once now, and every forwarded request is a 502 naming what to install.
    private static func fallThrough(_ configuration: MockStackConfiguration) -> FallThrough? {
        guard let target = configuration.proxyUnmatched else { return nil }
        let client = UpstreamClient(
            target: target, timeoutSeconds: configuration.proxyTimeoutSeconds, library: configuration.proxyLibcurl)
        let observer = configuration.proxyObserver
        let logger = configuration.logger
        if let missing = client.libraryProblem {
            logger.error("proxy: \(missing) (\(missing.detail)); every request forwarded to \(target) will be a 502")
        }
        return forwarding(through: client, logged: "proxy", logger: logger, observer: observer)
    }

    /// A proxying stub's forwarding (`"proxyBaseUrl"`): ``UpstreamClient``'s rules, as
    /// `--proxy-unmatched`'s, with its timeout and libcurl, to the stub's base URL.
    private static func stubProxy(_ configuration: MockStackConfiguration) -> FallThrough.Maker {
        let timeout = configuration.proxyTimeoutSeconds
        let library = configuration.proxyLibcurl
        let logger = configuration.logger
        return { proxy in
            do throws(UpstreamTargetError) {
                let client = UpstreamClient(
                    target: try UpstreamTarget(parsing: proxy.baseURL), timeoutSeconds: timeout, library: library)
                return forwarding(through: client, logged: "stub proxy", logger: logger)
            } catch {
                let refusal = PlainError.response(502, "Bad Gateway: the stub's proxyBaseUrl \(error.message)")
                return FallThrough(timeoutMilliseconds: timeout * 1000 + 5000) { _, answered in answered(refusal) }
            }
        }
    }

    /// Each request sent on through `client`, its answer shown to `observer` and then sent; a
    /// failure is logged under `logged` and answered with its 502. The deferred answer outlives
    /// the client's own timeout, which ends it with a clearer 502.
    private static func forwarding(
        through client: UpstreamClient, logged: String, logger: Logger,
        observer: (@Sendable (HTTPRequest, HTTPResponse) -> Void)? = nil
    ) -> FallThrough {
        FallThrough(timeoutMilliseconds: client.timeoutSeconds * 1000 + 5000) { request, answered in
            client.send(request) { result in
                switch result {
                case .success(let response):
                    observer?(request, response)
                    answered(response)
                case .failure(let failure):
                    logger.warning("\(logged): \(request.methodName) \(request.target): \(failure)")
                    answered(failure.response)
                }
            }
        }
    }

    /// Binds every port and starts serving.
    /// - Returns: what to announce; the sockets accept connections when this returns.
    /// - Throws: ``TransportError`` when a port cannot be bound.
    public func start() throws(TransportError) -> ReadyEvent {
        let bound = try transport.start()
        let https = tls == nil ? nil : bound.last?.port
        let exposed = bound.dropFirst().dropLast(tls == nil ? 0 : 1).map { (name: $0.label, port: $0.port) }
        exposedPorts.value = Dictionary(exposed.map { ($0.name, $0.port) }, uniquingKeysWith: { a, _ in a })
        configuration.logger.trace("listening", metadata: ["mockstack.port": "\(bound[0].port)"])
        watcher?.start()
        if configuration.watchesFixtures { stubFolders?.watch() }
        buildUnbuiltApps()
        return ReadyEvent(
            host: configuration.host,
            port: bound[0].port,
            httpsPort: https,
            apps: registry.mounted.map { (name: $0.name, mount: $0.mount) },
            notLoaded: notLoaded,
            exposed: exposed,
            pid: ProcessInfo.processInfo.processIdentifier,
            version: configuration.version,
            adminTokenRequired: adminAccess != .open
        )
    }

    /// The HTTPS listener's label in logs.
    static let httpsLabel = "https"

    /// After a load cache hit, builds the apps (every one is left for after the ready line), one
    /// after another in load order, on a thread of their own, so that a client's first request
    /// usually finds its app built (a request that comes first builds it, or waits for the
    /// build under way).
    private func buildUnbuiltApps() {
        let registry = registry
        guard configuration.buildsDeferredAppsInBackground,
            registry.mounted.contains(where: { if case .unbuilt = $0 { true } else { false } })
        else { return }
        let logger = configuration.logger
        DispatchQueue.global(qos: .userInitiated).async {
            let built = registry.buildAll()
            logger.trace("deferred apps built: \(built.joined(separator: ", "))")
        }
    }

    /// Begins a graceful stop: no new connections, in-flight replies finish. Any thread.
    public func stop() {
        watcher?.stop()
        stubFolders?.stop()
        transport.stop()
    }

    /// With ``MockStackConfiguration/watchesFixtures``: looks for changed fixtures now rather
    /// than at the next poll, and reloads them.
    public func reloadChangedFixtures() {
        watcher?.reloadIfChanged()
        stubFolders?.reloadIfChanged()
    }

    /// Blocks until the server has stopped (after ``stop()`` or SIGINT/SIGTERM).
    public func wait() { transport.wait() }

    /// ``stop()`` then ``wait()``.
    public func shutdown() { transport.shutdown() }
}

/// A start-up problem with a message meant for the user.
public struct MockStackError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A value behind a lock, for the little shared state the façade keeps.
final class LockedValue<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    init(_ value: Value) { stored = Mutex(value) }

    var value: Value {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
