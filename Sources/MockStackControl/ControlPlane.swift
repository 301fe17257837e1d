#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore
import MockStackWire

/// The test-control plane under `/__mockstack/` (docs/architecture.md#the-control-plane): everything a test uses to
/// steer or inspect the server, never inside an app's namespace. Answers in ``PlainError``'s
/// JSON format.
package struct ControlPlane: Sendable {
    static let prefix = "/__mockstack"
    static let prefixBytes = Array(prefix.utf8)

    let registry: AppRegistry
    let journal: RequestJournal
    let stubs: StubStore
    let sessions: SessionStore
    let faults: RequestFaults
    let exposedPorts: @Sendable () -> [String: Int]
    /// Who may see more than the health probe's `ok` (the gate itself is ``RootResponder``'s).
    let access: AdminAccess
    /// What `serve --watch` last did, when it watches.
    let lastReload: @Sendable () -> ReloadOutcome?
    /// How many requests may wait for journal entries at once (`requests/wait`), server-wide.
    let waits: WaitBudget
    /// What the apps' sockets did (`sockets/activity`); the apps report to it themselves.
    let realtime: RealtimeJournal
    /// The session this control plane speaks for (`/__session/{id}/__mockstack/…`): its apps,
    /// journal and stubs only. `nil`: the whole server.
    private(set) var session: Session?

    package init(registry: AppRegistry, journal: RequestJournal, stubs: StubStore, sessions: SessionStore, faults: RequestFaults, access: AdminAccess,
         exposedPorts: @escaping @Sendable () -> [String: Int], lastReload: @escaping @Sendable () -> ReloadOutcome? = { nil },
         waits: WaitBudget = WaitBudget(), realtime: RealtimeJournal = RealtimeJournal()) {
        self.realtime = realtime
        self.registry = registry
        self.journal = journal
        self.stubs = stubs
        self.sessions = sessions
        self.faults = faults
        self.access = access
        self.exposedPorts = exposedPorts
        self.lastReload = lastReload
        self.waits = waits
    }

    /// The same endpoints for one session.
    func scoped(to session: Session) -> ControlPlane {
        var scoped = self
        scoped.session = session
        return scoped
    }

    static let endpoints = ["health", "apps", "requests", "reset", "stubs", "scenarios", "sockets", "events", "sessions"]

    /// This scope's apps; the server's not built yet are built now.
    var apps: [any MockApp] { session?.apps ?? registry.apps }
    /// This scope's apps as they stand, building none: a session's are always built.
    var mounted: [MountedApp] { session.map { $0.apps.map(MountedApp.built) } ?? registry.mounted }
    var scopedJournal: RequestJournal { session?.journal ?? journal }
    var scopedRealtime: RealtimeJournal { session?.realtime ?? realtime }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let endpoint = String(request.path.dropFirst(Self.prefix.count))
        switch endpoint {
        case "", "/":
            return readOnly(request) { HTTPResponse(status: 200, headers: ["Content-Type": MediaType.html], body: ControlPage.html) }
        case "/health":
            // Open to probes without the token; they learn only that it is up.
            return readOnly(request) { .json(200, access.authorizes(request) ? health : ["status": "ok"]) }
        case "/apps":
            return readOnly(request) { .json(200, ["apps": .array(apps.map(describe))]) }
        case "/requests/count", "/requests/find":
            guard request.method == .post else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["POST"]) }
            return verify(request, counting: endpoint == "/requests/count")
        case "/requests/wait":
            switch request.method {
            case .post: return waitForRequest(request)
            case .get, .head: return .json(200, ["waiting": .number(JSONNumber(waitingCount)), "limit": .number(JSONNumber(waits.limit))])
            default: return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["GET", "HEAD", "POST"])
            }
        case "/requests/unmatched":
            return readOnly(request) { requests(request, unmatchedOnly: true) }
        case "/requests":
            switch request.method {
            case .get, .head: return requests(request)
            case .delete:
                scopedJournal.clear()
                return HTTPResponse(status: 204)
            default: return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE", "GET", "HEAD"])
            }
        case "/reset":
            guard request.method == .post else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["POST"]) }
            return reset(request)
        case "/stubs":
            switch request.method {
            case .get, .head: return listStubs()
            case .post: return addStub(request)
            case .delete: return removeStubs(request)
            default: return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE", "GET", "HEAD", "POST"])
            }
        case let path where path.hasPrefix("/stubs/"):
            guard request.method == .delete else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE"]) }
            let id = String(path.dropFirst("/stubs/".count))
            return stubs.remove(id: id, session: session?.id) ? HTTPResponse(status: 204) : PlainError.response(404, "No stub '\(id)'")
        case "/scenarios":
            return readOnly(request) { .json(200, ["scenarios": .array(stubs.scenarios(session: session?.id).map(describe))]) }
        case "/scenarios/reset":
            guard request.method == .post else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["POST"]) }
            stubs.resetScenarios(session: session?.id)
            return HTTPResponse(status: 204)
        case let path where path.hasPrefix("/scenarios/") && path.hasSuffix("/state") && path.count > "/scenarios//state".count:
            guard request.method == .put else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["PUT"]) }
            return setScenario(PercentDecoding.decode(path.dropFirst("/scenarios/".count).dropLast("/state".count)), request)
        case "/sockets":
            return sockets(request, id: nil)
        case "/sockets/activity":
            return socketActivity(request)
        case let path where path.hasPrefix("/sockets/") && path.count > "/sockets/".count:
            return sockets(request, id: String(path.dropFirst("/sockets/".count)))
        case "/events":
            return pushEvent(request)
        case "/events/delay":
            return delayEvents(request)
        case "/sessions" where session == nil:
            return readOnly(request) { .json(200, ["sessions": .array(sessions.all.map(describe)), "limit": .number(JSONNumber(sessions.limit))]) }
        case let path where path.hasPrefix("/sessions/") && session == nil:
            guard request.method == .delete else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE"]) }
            let id = String(path.dropFirst("/sessions/".count))
            return sessions.remove(id) ? HTTPResponse(status: 204) : PlainError.response(404, "No session '\(id)'")
        default:
            let available = Self.endpoints.filter { session == nil || $0 != "sessions" }.map { "\(Self.prefix)/\($0)" }.joined(separator: ", ")
            return PlainError.response(404, "No control endpoint \(request.path); available: \(available)")
        }
    }

    func readOnly(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["GET", "HEAD"])
        }
        return answer()
    }

    /// `{"status": "ok"}`, and under `serve --watch` what the last reload did.
    private var health: JSONValue {
        var object: JSONObject = ["status": "ok"]
        if let reload = lastReload() {
            object["lastReload"] = [
                "time": .string(reload.time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
                "ok": .bool(reload.problems.isEmpty),
                "reloaded": .array(reload.reloaded.map(JSONValue.string)),
                "problems": .array(reload.problems.map(JSONValue.string)),
            ]
        }
        return .object(object)
    }

    private func describe(_ session: Session) -> JSONValue {
        [
            "id": .string(session.id),
            "prefix": .string(session.prefix),
            "created": .string(session.created.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "requests": .number(JSONNumber(session.journal.count)),
        ]
    }

    private func describe(_ app: any MockApp) -> JSONValue {
        var object: JSONObject = [
            "name": .string(app.name),
            "kind": .string(app.kind),
            "mount": .string(app.mount),
        ]
        if let port = exposedPorts()[app.name] { object["exposedPort"] = .number(JSONNumber(port)) }
        object["routes"] = .array(app.routes.map { route in
            ["name": .string(route.name), "methods": .array(route.methods.map(JSONValue.string)), "path": .string(route.path)]
        })
        return .object(object)
    }
}
