public import Logging
public import MockStackCore
public import MockStackProxy
public import MockStackTransport

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Everything `mockstack serve` can be told. Defaults are the safe, deterministic ones a test
/// wants: loopback, a free port, one loop, quiet logs.
public struct MockStackConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; the ready event says which.
    public var port: Int
    /// The fixtures folders, read as one with the later ones winning on an app folder's name
    /// (``FixtureFolders``); none: the shipped one (``FixturesLocator``).
    public var fixtures: [URL]
    /// Apps also served at the root of a port of their own: app name → port (0 = free port).
    public var exposed: [(app: String, port: Int)]
    /// The app folders to load (`["test"]`), or nil for all of them: a test that needs one app
    /// starts faster and smaller without the others' data.
    public var apps: [String]?
    /// The `Date:` line of generated DTO files (`2025-11-21T22:15:03Z`), fixed for golden
    /// files; nil: the time of generation.
    public var fixedDate: String?
    /// `serve --https-port`: also serve everything the main port serves over TLS on this port
    /// (0 = a free one); nil: no HTTPS.
    public var httpsPort: Int?
    /// Where the HTTPS port's certificate comes from: made at start, signed by a CA made with
    /// it (the default), or files the user gives.
    public var tlsCertificate = TLSCertificateSource.generated()
    /// Transport settings (threads, limits, timeouts, signals, logger). Its `host` is
    /// overwritten by ``host``.
    public var transport: TransportConfiguration
    /// Requests the journal keeps (`/__mockstack/requests`); 0 turns it off.
    public var journalSize = 1000
    /// Bytes of each request body the journal keeps.
    public var journalBodyBytes = 16 * 1024
    /// Sessions (`/__session/{id}/…`) kept at once; past it the least recently used is dropped.
    public var maxSessions = 256
    /// Where seeded-random delays start (`X-MockStack-Delay: 100-500`, a stub's `delayMs` range).
    public var seed: UInt64 = 0
    /// The token the control plane requires (``AdminAccess``). nil: none on loopback, and a
    /// random one, made at start-up, on any other address.
    public var adminToken: String?
    /// The version the ready line reports: `mockstack serve` sets its `--version` text, the
    /// release and the commit it was built from.
    public var version = MockStackVersion.current
    /// Whether `serve --watch` reloads an app when its fixtures folder changes (and the stubs
    /// when a file in ``stubFolders`` does).
    public var watchesFixtures = false
    /// `serve --stubs DIR`: folders whose `*.json` files hold stubs, loaded and checked before
    /// the ready line, and put back by a whole reset (README.md, Stubs kept in files).
    public var stubFolders: [URL] = []
    /// Where the load cache keeps its records (``LoadCache``, docs/load-cache.md); nil, the
    /// default for a server made in code: no cache, every start loads and checks everything.
    /// `mockstack serve` sets ``LoadCache/defaultFolder(environment:)`` unless `--no-load-cache`.
    public var loadCacheFolder: URL?
    /// After a load cache hit: whether the apps left to build at their first use are built on
    /// a thread of their own right after ``MockStackServer/start()``, in load order (else each
    /// at its first request).
    public var buildsDeferredAppsInBackground = true
    /// Whether app folders are read at all: `mockstack record` serves none (its root stands
    /// for its target), so it needs no fixtures folder.
    public var loadsApps = true
    /// `serve --proxy-unmatched URL`: where a request no app or stub answers is forwarded
    /// (journaled as proxied) instead of getting its 404.
    public var proxyUnmatched: UpstreamTarget?
    /// How long the upstream may take, silent or in all, before the client gets a 502.
    public var proxyTimeoutSeconds = 30
    /// The libcurl the upstream client opens at its first request (`MOCKSTACK_LIBCURL`): a file
    /// name the dynamic loader looks up, or a path. Without it, forwarded requests are 502s.
    public var proxyLibcurl = UpstreamClient.defaultLibrary
    /// Told every answer the upstream gave, with its request, before the client gets it (on
    /// the upstream client's thread, never a loop's): how `mockstack record` writes its app folder.
    public var proxyObserver: (@Sendable (HTTPRequest, HTTPResponse) -> Void)?

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        fixtures: [URL] = [],
        exposed: [(app: String, port: Int)] = [],
        apps: [String]? = nil,
        transport: TransportConfiguration = TransportConfiguration()
    ) {
        self.host = host
        self.port = port
        self.fixtures = fixtures
        self.exposed = exposed
        self.apps = apps
        self.transport = transport
    }

    /// The logger the server and transport use.
    public var logger: Logger {
        get { transport.logger }
        set { transport.logger = newValue }
    }
}
