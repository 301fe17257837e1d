#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore
import MockStackWire

/// The test-control plane under `/__mockstack/` (architecture §4): everything a test uses to
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
    /// The session this control plane speaks for (`/__session/{id}/__mockstack/…`): its apps,
    /// journal and stubs only. `nil`: the whole server.
    private(set) var session: Session?

    package init(registry: AppRegistry, journal: RequestJournal, stubs: StubStore, sessions: SessionStore, faults: RequestFaults, access: AdminAccess,
         exposedPorts: @escaping @Sendable () -> [String: Int], lastReload: @escaping @Sendable () -> ReloadOutcome? = { nil }) {
        self.registry = registry
        self.journal = journal
        self.stubs = stubs
        self.sessions = sessions
        self.faults = faults
        self.access = access
        self.exposedPorts = exposedPorts
        self.lastReload = lastReload
    }

    /// The same endpoints for one session.
    func scoped(to session: Session) -> ControlPlane {
        var scoped = self
        scoped.session = session
        return scoped
    }

    static let endpoints = ["health", "apps", "requests", "reset", "stubs", "scenarios", "sessions"]

    private var apps: [any MockApp] { session?.apps ?? registry.apps }
    private var scopedJournal: RequestJournal { session?.journal ?? journal }

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

    // MARK: Journal

    /// `GET requests?app=&method=&path=&operation=&since=&limit=`: matching entries oldest
    /// first (`limit`: the newest N of them), with how many the ring has dropped; unmatched ones
    /// with the mounted routes nearest to their path (``NearestRoutes``, worked out now, for the
    /// entries shown). `GET requests/unmatched`: only those.
    private func requests(_ request: HTTPRequest, unmatchedOnly: Bool = false) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        var filters: [(JournalEntry) -> Bool] = []
        let known = ["app", "session", "method", "path", "pathPrefix", "operation", "since", "limit"]
        for name in parameters.names where !known.contains(name) {
            return PlainError.response(400, "Unknown filter '\(name)' (filters: \(known.joined(separator: ", ")))")
        }
        if let app = parameters["app"] { filters.append { $0.app == app } }
        if let session = parameters["session"] { filters.append { $0.session == session } }
        if let method = parameters["method"]?.uppercased() { filters.append { $0.request.method.rawValue == method } }
        if let path = parameters["path"] { filters.append { $0.request.path == path } }
        if let prefix = parameters["pathPrefix"] { filters.append { $0.request.path.hasPrefix(prefix) } }
        if let operation = parameters["operation"] { filters.append { $0.operation == operation } }
        if let since = parameters["since"] {
            if let id = Int(since) {
                filters.append { $0.id > id }
            } else if let time = (try? Date(since, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) ?? (try? Date(since, strategy: .iso8601)) {
                filters.append { $0.time > time }
            } else {
                return PlainError.response(400, "since: expected an entry id or an ISO-8601 time, found '\(since)'")
            }
        }
        var limit = Int.max
        if let text = parameters["limit"] {
            guard let value = Int(text), value >= 0 else { return PlainError.response(400, "limit: expected a whole number ≥ 0, found '\(text)'") }
            limit = value
        }
        if unmatchedOnly { filters.append(\.unmatched) }
        let (entries, dropped) = scopedJournal.snapshot()
        let matching = entries.filter { entry in filters.allSatisfy { $0(entry) } }
        let shown = matching.suffix(limit)
        return .json(200, ["requests": .array(described(shown)), "total": .number(JSONNumber(matching.count)),
                           "dropped": .number(JSONNumber(dropped)), "capacity": .number(JSONNumber(scopedJournal.capacity))])
    }

    /// Entries as JSON, the unmatched ones with `"nearest"`: the routes they may have meant,
    /// each path worked out once however often it recurs, for the newest
    /// ``NearestRoutes/pathsPerRead`` paths (older entries go without, so a read stays cheap).
    private func described(_ entries: some BidirectionalCollection<JournalEntry>) -> [JSONValue] {
        guard entries.contains(where: \.unmatched) else { return entries.map(\.json) }
        let routes = NearestRoutes(apps: apps)
        var found: [String: JSONValue] = [:]
        var described: [JSONValue] = []
        described.reserveCapacity(entries.count)
        for entry in entries.reversed() {
            guard entry.unmatched, case .object(var object) = entry.json else {
                described.append(entry.json)
                continue
            }
            let path = entry.request.path
            if let nearest = found[path] {
                object["nearest"] = nearest
            } else if found.count < NearestRoutes.pathsPerRead {
                let nearest = JSONValue.array(routes.nearest(to: path).map(NearestRoutes.json))
                found[path] = nearest
                object["nearest"] = nearest
            }
            described.append(.object(object))
        }
        return described.reversed()
    }

    /// `POST requests/count` and `POST requests/find`: the entries of this scope's journal
    /// that match a request pattern (the shape of a stub's `match`), counted (`{"count": N}`)
    /// or listed oldest first (`{"requests": […]}`). Without `session`, the server's journal
    /// counts every session's requests too.
    private func verify(_ request: HTTPRequest, counting: Bool) -> HTTPResponse {
        let matcher: RequestMatcher
        do {
            let json = request.body.isEmpty ? JSONValue.object([:]) : try JSONParser.forRequestBodies().parse(request.body).root
            matcher = try RequestMatcher(RequestPattern(json: json, field: ""), field: "")
        } catch let problem as WireProblem {
            return PlainError.response(400, "Invalid pattern: \(problem.description)")
        } catch let problem as RequestMatcher.Problem {
            return PlainError.response(400, "Invalid pattern: \(problem.field): \(problem.message)")
        } catch {
            return PlainError.response(400, "The pattern is not JSON: \(error)")
        }
        let ignoringCase = appsIgnoringParameterCase
        let found = scopedJournal.snapshot().entries.filter { matcher.matches(subject(of: $0, ignoringCase), anySession: true) }
        return counting ? .json(200, ["count": .number(JSONNumber(found.count))]) : .json(200, ["requests": .array(described(found))])
    }

    /// A journal entry as stubs and verifications match it: the request as kept (its body cut
    /// at the capture limit), with the operation that answered it.
    /// - Parameter ignoringCase: ``appsIgnoringParameterCase``.
    private func subject(of entry: JournalEntry, _ ignoringCase: Set<String>) -> MatchedRequest {
        MatchedRequest(entry.request, app: entry.app.isEmpty ? nil : entry.app, session: entry.session,
                       parameterNamesIgnoreCase: ignoringCase.contains(entry.app), knownOperation: entry.operation)
    }

    /// The apps whose query parameter names match in any case (``MockApp/parameterNamesIgnoreCase``).
    private var appsIgnoringParameterCase: Set<String> {
        Set(apps.filter(\.parameterNamesIgnoreCase).map(\.name))
    }

    // MARK: Stubs

    /// `POST stubs`: 201 with the stub's id, or 400 naming the field that is wrong.
    private func addStub(_ request: HTTPRequest) -> HTTPResponse {
        let json: JSONValue
        do {
            json = try JSONParser.forRequestBodies().parse(request.body).root
        } catch {
            return PlainError.response(400, "The stub is not JSON: \(error)")
        }
        var definition = json
        if let session, case .object(var root) = json {
            // A session's stub answers only that session's requests.
            // (A match that is not an object is left for the stub's parser to refuse.)
            if var match = root["match"].map({ $0.objectValue }) ?? JSONObject() {
                match["session"] = .string(session.id)
                root["match"] = .object(match)
                definition = .object(root)
            }
        }
        do {
            let stub = try stubs.add(definition)
            return .json(201, stub.listed)
        } catch {
            return PlainError.response(400, "Invalid stub: \(error.description)")
        }
    }

    /// `DELETE stubs[?app=NAME]`: this scope's stubs (the server's own, or this session's),
    /// all of them or one app's. A filter it does not know is a 400 rather than ignored, which
    /// would remove more than was asked.
    private func removeStubs(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        for name in parameters.names where name != "app" {
            return PlainError.response(400, "Unknown filter '\(name)' (filters: app)")
        }
        stubs.removeAll(app: parameters["app"], session: session?.id)
        return HTTPResponse(status: 204)
    }

    /// `GET stubs`: each stub with its hits; one that never matched lists why the latest
    /// journal entries (for its app, if it names one) did not match it.
    private func listStubs() -> HTTPResponse {
        let entries = scopedJournal.snapshot().entries
        let ignoringCase = appsIgnoringParameterCase
        let listed = stubs.all.filter { session == nil || $0.match.session == session?.id }.map { stub -> JSONValue in
            guard case .object(var object) = stub.listed else { return stub.listed }
            if stub.hits == 0 {
                let candidates = entries.filter { stub.match.app == nil || $0.app == stub.match.app }.suffix(5).reversed()
                object["nearMisses"] = .array(candidates.compactMap { entry in
                    entry.stub == nil ? stub.match.mismatch(subject(of: entry, ignoringCase)).map { reason in
                        ["request": .number(JSONNumber(entry.id)), "method": .string(entry.request.method.rawValue),
                         "path": .string(entry.request.path), "reason": .string(reason)]
                    } : nil
                })
            }
            return .object(object)
        }
        return .json(200, ["stubs": .array(listed)])
    }

    // MARK: Scenarios

    /// `PUT scenarios/NAME/state` with `{"state": "…"}`: the scenario moved there, as a test
    /// sets up the middle of a flow.
    private func setScenario(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let json = try? JSONParser.forRequestBodies().parse(request.body).root, case .object(let object) = json,
              object.keys == ["state"], let state = object["state"]?.stringValue, !state.isEmpty else {
            return PlainError.response(400, "Expected {\"state\": \"…\"}, a state name")
        }
        guard stubs.setScenario(name, to: state, session: session?.id) else {
            let known = stubs.scenarios(session: session?.id).map(\.name)
            return PlainError.response(404, "No stub names the scenario '\(name)' (scenarios: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        return .json(200, ["name": .string(name), "state": .string(state)])
    }

    private func describe(_ scenario: Scenario) -> JSONValue {
        ["name": .string(scenario.name), "state": .string(scenario.state), "possibleStates": .array(scenario.possibleStates.map(JSONValue.string))]
    }

    // MARK: Reset

    /// `POST reset[?app=NAME | ?session=ID]`, in three scopes:
    /// - whole (no parameter): every app of this scope back to its fixture state, its stubs
    ///   removed, its scenarios started over, its journal emptied, random delays started over;
    ///   the server's also drops every session;
    /// - one app (`app`): that app's state, its stubs and its journal entries in this scope,
    ///   nothing else (the server's never touches a session's);
    /// - one session (`session`, on the server's control plane): what the session's own
    ///   whole reset does.
    private func reset(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        let known = session == nil ? ["app", "session"] : ["app"]
        for name in parameters.names where !known.contains(name) {
            return PlainError.response(400, "Unknown parameter '\(name)' (parameters: \(known.joined(separator: ", ")))")
        }
        if let id = parameters["session"] {
            guard parameters["app"] == nil else { return PlainError.response(400, "Give app or session, not both") }
            guard let found = sessions.existing(id) else { return PlainError.response(404, "No session '\(id)'") }
            var inner = request
            inner.query = nil
            return scoped(to: found).reset(inner)
        }
        if let name = parameters["app"] {
            guard let app = apps.first(where: { $0.name == name }) else {
                return PlainError.response(404, "No app named '\(name)' (apps: \(apps.map(\.name).joined(separator: ", ")))")
            }
            app.reset()
            stubs.removeAll(app: name, session: session?.id)
            let scope = session?.id
            scopedJournal.remove { $0.app == name && $0.session == scope }
            return .json(200, ["reset": [.string(name)]])
        }
        for app in apps { app.reset() }
        stubs.removeAll(session: session?.id)
        scopedJournal.clear()
        if let session {
            session.faults.reseed()
        } else {
            sessions.removeAll()
            faults.reseed()
        }
        return .json(200, ["reset": .array(apps.map { .string($0.name) })])
    }

    private func readOnly(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
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
