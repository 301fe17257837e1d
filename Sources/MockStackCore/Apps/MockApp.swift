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
