/// One emulated server, mounted under a path prefix (docs/architecture.md#apps-and-mounts).
///
/// An app receives requests whose ``HTTPRequest/path`` is relative to its mount and answers in
/// its own server's format. Apps are immutable values or guard their state themselves; they are
/// called from every event-loop thread.
public protocol MockApp: Responder {
    /// The app's name (`test`, `techstacks`, …): the key in the ready line and in `--expose`.
    var name: String { get }
    /// The path prefix it is mounted at (`/test`).
    var mount: String { get }
    /// The manifest kind that built it: `static`, `servicestack` or `feathers`.
    var kind: String { get }
    /// Every operation, service or route the app answers, for `mockstack routes` and
    /// `/__mockstack/apps`.
    var routes: [RouteDescription] { get }
    /// The operation, service method or fixture that takes `request` (its path relative to the
    /// mount), told without running it — the name the app's answer carries as
    /// ``HTTPResponse/operation`` — or nil when no route takes it. What a stub's `operation`
    /// is matched against; asked only when a stub needs it, never on the usual request path.
    func operation(for request: HTTPRequest) -> String?
    /// Whether the app reads query parameter names in any case (ServiceStack does): stubs and
    /// verifications then match their `query` names the same way.
    var parameterNamesIgnoreCase: Bool { get }
    /// Back to the fixture state: records, sessions, caches (`POST /__mockstack/reset`).
    func reset()
    /// A private copy in the fixture state for a session (`/__session/{id}/…`): its own records,
    /// sessions and tokens; what never changes may be shared.
    func makeSession() -> any MockApp
    /// The app as a ``RealtimeApp`` when it is one (it holds sockets), else nil. A requirement
    /// rather than an `as? any RealtimeApp`: the Swift runtime answers each first cast of a
    /// type by scanning all of the binary's protocol conformance records, ~1.3M instructions of
    /// a start-up over the shipped apps' types.
    var realtime: (any RealtimeApp)? { get }
}

extension MockApp {
    /// Apps that cannot tell say none.
    public func operation(for request: HTTPRequest) -> String? { nil }
    /// Names are matched as sent.
    public var parameterNamesIgnoreCase: Bool { false }
    /// Apps without state have nothing to restore.
    public func reset() {}
    /// Apps without state can serve every session themselves.
    public func makeSession() -> any MockApp { self }
    /// Apps without sockets are not real-time.
    public var realtime: (any RealtimeApp)? { nil }
}

extension RealtimeApp {
    /// A real-time app is itself.
    public var realtime: (any RealtimeApp)? { self }
}

/// One line of the routes table: what answers, to which verbs, at which path.
public struct RouteDescription: Sendable, Equatable {
    /// The operation, service or fixture name.
    public var name: String
    public var methods: [String]
    /// The path relative to the app's mount (`/api/Hello`, `/hello/{Name}`).
    public var path: String

    public init(name: String, methods: [String], path: String) {
        self.name = name
        self.methods = methods
        self.path = path
    }
}
