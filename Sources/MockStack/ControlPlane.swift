import Foundation
import MockStackCore

/// The test-control plane under `/__mockstack/` (architecture §4): everything a test uses to
/// steer or inspect the server, never inside an app's namespace. Answers in ``PlainError``'s
/// JSON format.
struct ControlPlane: Sendable {
    static let prefix = "/__mockstack"

    let apps: [any MockApp]
    let journal: RequestJournal
    let stubs: StubStore
    let exposedPorts: @Sendable () -> [String: Int]

    static let endpoints = ["health", "apps", "requests", "reset", "stubs"]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let endpoint = String(request.path.dropFirst(Self.prefix.count))
        switch endpoint {
        case "/health":
            return readOnly(request) { .json(200, ["status": "ok"]) }
        case "/apps":
            return readOnly(request) { .json(200, ["apps": .array(apps.map(describe))]) }
        case "/requests":
            switch request.method {
            case .get, .head: return requests(request)
            case .delete:
                journal.clear()
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
            case .delete:
                stubs.removeAll()
                return HTTPResponse(status: 204)
            default: return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE", "GET", "HEAD", "POST"])
            }
        case let path where path.hasPrefix("/stubs/"):
            guard request.method == .delete else { return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["DELETE"]) }
            let id = String(path.dropFirst("/stubs/".count))
            return stubs.remove(id: id) ? HTTPResponse(status: 204) : PlainError.response(404, "No stub '\(id)'")
        default:
            let available = Self.endpoints.map { "\(Self.prefix)/\($0)" }.joined(separator: ", ")
            return PlainError.response(404, "No control endpoint \(request.path); available: \(available)")
        }
    }

    // MARK: Journal

    /// `GET requests?app=&method=&path=&operation=&since=&limit=`: matching entries oldest
    /// first (`limit`: the newest N of them), with how many the ring has dropped.
    private func requests(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        var filters: [(JournalEntry) -> Bool] = []
        for name in parameters.names where !["app", "method", "path", "operation", "since", "limit"].contains(name) {
            return PlainError.response(400, "Unknown filter '\(name)' (filters: app, method, path, operation, since, limit)")
        }
        if let app = parameters["app"] { filters.append { $0.app == app } }
        if let method = parameters["method"]?.uppercased() { filters.append { $0.request.method.rawValue == method } }
        if let path = parameters["path"] { filters.append { $0.request.path.hasPrefix(path) } }
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
        let (entries, dropped) = journal.snapshot()
        let matching = entries.filter { entry in filters.allSatisfy { $0(entry) } }
        let shown = matching.suffix(limit)
        return .json(200, ["requests": .array(shown.map(\.json)), "total": .number(JSONNumber(matching.count)),
                           "dropped": .number(JSONNumber(dropped)), "capacity": .number(JSONNumber(journal.capacity))])
    }

    // MARK: Stubs

    /// `POST stubs`: 201 with the stub's id, or 400 naming the field that is wrong.
    private func addStub(_ request: HTTPRequest) -> HTTPResponse {
        let json: JSONValue
        do {
            json = try JSONParser().parse(request.body).root
        } catch {
            return PlainError.response(400, "The stub is not JSON: \(error)")
        }
        do {
            let stub = try stubs.add(json)
            return .json(201, stub.json)
        } catch {
            return PlainError.response(400, "Invalid stub: \(error.description)")
        }
    }

    /// `GET stubs`: each stub with its hits; one that never matched lists why the latest
    /// journal entries (for its app, if it names one) did not match it.
    private func listStubs() -> HTTPResponse {
        let entries = journal.snapshot().entries
        let listed = stubs.all.map { stub -> JSONValue in
            guard case .object(var object) = stub.json else { return stub.json }
            if stub.hits == 0 {
                let candidates = entries.filter { stub.match.app == nil || $0.app == stub.match.app }.suffix(5).reversed()
                object["nearMisses"] = .array(candidates.compactMap { entry in
                    entry.stub == nil ? stub.match.mismatch(entry.request, app: entry.app.isEmpty ? nil : entry.app).map { reason in
                        ["request": .number(JSONNumber(entry.id)), "method": .string(entry.request.method.rawValue),
                         "path": .string(entry.request.path), "reason": .string(reason)]
                    } : nil
                })
            }
            return .object(object)
        }
        return .json(200, ["stubs": .array(listed)])
    }

    // MARK: Reset

    /// `POST reset[?app=name]`: the app (or every app) back to its fixture state, and the
    /// journal emptied.
    private func reset(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        var targets = apps
        if let name = parameters["app"] {
            guard let app = apps.first(where: { $0.name == name }) else {
                return PlainError.response(404, "No app named '\(name)' (apps: \(apps.map(\.name).joined(separator: ", ")))")
            }
            targets = [app]
        }
        for app in targets { app.reset() }
        if let name = parameters["app"] { stubs.removeAll(app: name) } else { stubs.removeAll() }
        journal.clear()
        return .json(200, ["reset": .array(targets.map { .string($0.name) })])
    }

    private func readOnly(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["GET", "HEAD"])
        }
        return answer()
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
