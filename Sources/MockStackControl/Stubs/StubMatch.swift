import MockStackCore

/// Which requests a runtime stub answers: every criterion given must hold.
struct StubMatch: Sendable {
    var method: HTTPMethod?
    /// The full path (mount included), exactly.
    var path: String?
    var pathPrefix: String?
    /// A regular expression the whole path must match, compiled when the stub is added (by
    /// ``Pattern``: linear-time, so no pattern can stall the loop that matches it).
    var pathRegex: Pattern?
    /// Query parameters that must be present with these values (decoded).
    var query: [(name: String, value: String)] = []
    /// Headers that must be present with these values (names ignore case).
    var headers: [(name: String, value: String)] = []
    /// The JSON body, equal to this.
    var body: JSONValue?
    /// JSON pointers into the body and the values they must hold.
    var bodyPointers: [(pointer: String, value: JSONValue)] = []
    /// The app the request is for (by name).
    var app: String?
    var session: String?

    /// Whether the request matches, with no reason written for a stub it does not: every stub is
    /// tried on every request, and a reason can quote a large part of the body.
    func matches(_ request: HTTPRequest, app appName: String?, session sessionId: String? = nil, json: RequestBodyJSON? = nil) -> Bool {
        mismatch(request, app: appName, session: sessionId, json: json, explained: false) == nil
    }

    /// Why the request does not match — the first criterion that fails — or nil when it does.
    /// - Parameters:
    ///   - json: the request's body as JSON, read once for every stub that asks.
    ///   - explained: false to get "" instead of the reason, for a caller that only asks whether.
    func mismatch(_ request: HTTPRequest, app appName: String?, session sessionId: String? = nil, json: RequestBodyJSON? = nil,
                  explained: Bool = true) -> String? {
        func because(_ reason: @autoclosure () -> String) -> String { explained ? reason() : "" }
        if let app, app != appName { return because("app \(appName ?? "none") is not \(app)") }
        // A stub answers in its own scope only: the server's outside sessions, a session's inside it.
        if session != sessionId { return because("session \(sessionId ?? "none") is not \(session ?? "none")") }
        if let method, method != request.method { return because("method \(request.method.rawValue) is not \(method.rawValue)") }
        if let path, path != request.path { return because("path \(request.path) is not \(path)") }
        if let pathPrefix, !request.path.hasPrefix(pathPrefix) { return because("path \(request.path) does not start with \(pathPrefix)") }
        if let pathRegex, !pathRegex.wholeMatch(request.path) {
            return because("path \(request.path) does not match /\(pathRegex.source)/")
        }
        if !query.isEmpty {
            let given = QueryParameters(request.query)
            for (name, value) in query where given[name] != value {
                return because("query \(name) is \(given[name].map { "'\($0)'" } ?? "absent"), not '\(value)'")
            }
        }
        for (name, value) in headers where request.headers[name] != value {
            return because("header \(name) is \(request.headers[name].map { "'\($0)'" } ?? "absent"), not '\(value)'")
        }
        if body != nil || !bodyPointers.isEmpty {
            guard let json = (json ?? RequestBodyJSON(request)).value else { return because("the body is not JSON") }
            if let body, body != json { return because("the body is not the JSON expected") }
            for (pointer, value) in bodyPointers where JSONPointer.value(at: pointer, in: json) != value {
                return because("\(pointer) is \(JSONPointer.value(at: pointer, in: json)?.jsonText ?? "absent"), not \(value.jsonText)")
            }
        }
        return nil
    }
}
