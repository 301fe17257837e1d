import MockStackCore

/// The real-time connections of the apps that keep them (Feathers' Socket.IO): list them, drop
/// one, push an event, hold events back. In a session, that session's apps only.
extension ControlPlane {
    private var realtimeApps: [any RealtimeApp] {
        apps.compactMap { $0 as? any RealtimeApp }.filter(\.keepsRealtimeConnections)
    }

    /// `DELETE sockets/{id}`.
    func disconnectSocket(_ id: String) -> HTTPResponse {
        realtimeApps.contains { $0.disconnect(id) }
            ? HTTPResponse(status: 204) : PlainError.response(404, "No socket '\(id)'")
    }

    /// `GET sockets[?app=NAME]`.
    func listSockets(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        for name in parameters.names where name != "app" {
            return PlainError.response(400, "Unknown parameter '\(name)' (parameters: app)")
        }
        var listed: [JSONValue] = []
        var delays = JSONObject()
        for app in realtimeApps where parameters["app"] == nil || parameters["app"] == app.name {
            delays[app.name] = .number(JSONNumber(app.eventDelayMilliseconds))
            for connection in app.realtimeConnections {
                guard case .object(var described) = connection.json else { continue }
                described["app"] = .string(app.name)
                listed.append(.object(described))
            }
        }
        return .json(200, ["sockets": .array(listed), "eventDelayMs": .object(delays)])
    }

    /// `GET sockets/activity[?app=&connection=&kind=&name=&since=&limit=]`: what the sockets did,
    /// oldest first (the newest `limit`).
    func socketActivity(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        let known = ["app", "connection", "kind", "name", "since", "limit"]
        for name in parameters.names where !known.contains(name) {
            return PlainError.response(
                400, "Unknown parameter '\(name)' (parameters: \(known.joined(separator: ", ")))")
        }
        if let kind = parameters["kind"], RealtimeActivity.Kind(rawValue: kind) == nil {
            return PlainError.response(
                400, "kind must be one of: \(RealtimeActivity.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var numbers: [String: Int] = [:]
        for name in ["since", "limit"] {
            guard let text = parameters[name] else { continue }
            guard let number = Int(text), number >= 0 else {
                return PlainError.response(400, "\(name) must be a whole number, 0 or more")
            }
            numbers[name] = number
        }
        var found = scopedRealtime.entries.filter { entry in
            (parameters["app"].map { $0 == entry.app } ?? true)
                && (parameters["connection"].map { $0 == entry.activity.connection } ?? true)
                && (parameters["kind"].map { $0 == entry.activity.kind.rawValue } ?? true)
                && (parameters["name"].map { $0 == entry.activity.name } ?? true)
                && entry.id > (numbers["since"] ?? 0)
        }
        if let limit = numbers["limit"], found.count > limit { found.removeFirst(found.count - limit) }
        return .json(200, ["activity": .array(found.map(\.json))])
    }

    /// `POST events` with `{"app", "event", "arguments", "to"}`: the event to the app's
    /// connections (`to`: `all`, the default, `authenticated` or `anonymous`).
    func pushEvent(_ request: HTTPRequest) -> HTTPResponse {
        let (body, app): (JSONObject, any RealtimeApp)
        switch appRequest(request, keys: ["app", "event", "arguments", "to"]) {
        case .success(let read): (body, app) = read
        case .failure(let failure): return failure.response
        }
        guard case .string(let event)? = body["event"], !event.isEmpty else {
            return PlainError.response(400, "'event' must be the event's name, a non-empty string")
        }
        let arguments: [JSONValue]
        switch body["arguments"] {
        case nil: arguments = []
        case .array(let items)?: arguments = items
        case let other?: arguments = [other]
        }
        guard let audience = body["to"].map({ $0.stringValue.flatMap(RealtimeAudience.init(rawValue:)) }) ?? .all else {
            return PlainError.response(
                400, "'to' must be one of: \(RealtimeAudience.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return .json(200, ["sent": .number(JSONNumber(app.push(event: event, arguments: arguments, to: audience)))])
    }

    /// The longest event delay: a minute.
    static let maxEventDelayMilliseconds = 60_000

    /// `PUT events/delay` with `{"app", "ms"}`: the app's events held that long (0: not at all).
    func delayEvents(_ request: HTTPRequest) -> HTTPResponse {
        let (body, app): (JSONObject, any RealtimeApp)
        switch appRequest(request, keys: ["app", "ms"]) {
        case .success(let read): (body, app) = read
        case .failure(let failure): return failure.response
        }
        guard let milliseconds = body["ms"]?.intValue, (0...Self.maxEventDelayMilliseconds).contains(milliseconds)
        else {
            return PlainError.response(
                400, "'ms' must be a whole number of milliseconds from 0 to \(Self.maxEventDelayMilliseconds)")
        }
        app.delayEvents(byMilliseconds: milliseconds)
        return .json(200, ["app": .string(app.name), "eventDelayMs": .number(JSONNumber(milliseconds))])
    }

    /// A body that is a JSON object with only `keys`, naming an app with sockets in `app`.
    private func appRequest(
        _ request: HTTPRequest, keys: [String]
    ) -> Result<(JSONObject, any RealtimeApp), ResponseFailure> {
        objectBody(request, keys: keys).flatMap { body in
            app(named: body["app"], among: realtimeApps, name: \.name, with: "sockets").map { (body, $0) }
        }
    }
}

/// A ready answer carried as an error (a lookup that failed with its response).
struct ResponseFailure: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
