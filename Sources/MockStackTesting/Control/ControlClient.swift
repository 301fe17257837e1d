public import Foundation
public import MockStackWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The control plane (`/__mockstack/…`) of a running mockstack, or of one of its sessions,
/// over HTTP: the same calls work for an in-process server, a spawned one and a container.
public protocol MockStackControlling: Sendable {
    /// Where the control plane's paths start: the server's root, or a session's prefix.
    var controlBase: URL { get }
    /// The token a server off loopback wants on control-plane calls (``AdminToken``). By
    /// default `MOCKSTACK_ADMIN_TOKEN` from the environment, which a spawned server also reads.
    var adminToken: String? { get }
}

/// A control-plane call that did not get the answer it needed.
public struct MockStackControlError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status the control plane answered.
    public var status: Int
    /// The control plane's `message`, or the body it answered without one.
    public var message: String
    /// The status and the message, for test failures.
    public var description: String { "mockstack control plane answered \(status): \(message)" }
}

extension MockStackControlling {
    /// `MOCKSTACK_ADMIN_TOKEN` from the environment, or nil.
    public var adminToken: String? { ControlSession.environmentToken }

    /// The journaled requests that pass the filters, oldest first (`GET requests`).
    /// - Parameters:
    ///   - path: exactly this path (`/feathers/messages`);
    ///   - pathPrefix: paths that start with this (`/feathers/`);
    ///   - since: only entries after this id;
    ///   - limit: only the newest N.
    public func requests(
        app: String? = nil, method: String? = nil, path: String? = nil, pathPrefix: String? = nil,
        operation: String? = nil,
        since: Int? = nil, limit: Int? = nil
    ) async throws -> [RecordedRequest] {
        try await journal(
            "requests", app: app, method: method, path: path, pathPrefix: pathPrefix, operation: operation,
            since: since, limit: limit)
    }

    /// The journaled requests nothing took — no app mounted at the path, no route in the app,
    /// no stub — with the routes each may have meant (``RecordedRequest/nearest``), oldest first
    /// (`GET requests/unmatched`). The filters are ``requests(app:method:path:pathPrefix:operation:since:limit:)``'s.
    ///
    /// ```swift
    /// let missed = try await session.unmatchedRequests()
    /// #expect(missed.isEmpty, "\(missed.map { "\($0.path): did you mean \($0.nearest.map(\.path))?" })")
    /// ```
    public func unmatchedRequests(
        app: String? = nil, method: String? = nil, path: String? = nil, pathPrefix: String? = nil,
        since: Int? = nil, limit: Int? = nil
    ) async throws -> [RecordedRequest] {
        try await journal(
            "requests/unmatched", app: app, method: method, path: path, pathPrefix: pathPrefix, operation: nil,
            since: since, limit: limit)
    }

    private func journal(
        _ endpoint: String, app: String?, method: String?, path: String?, pathPrefix: String?, operation: String?,
        since: Int?, limit: Int?
    ) async throws -> [RecordedRequest] {
        var query: [URLQueryItem] = []
        for (name, value) in [
            ("app", app), ("method", method), ("path", path), ("pathPrefix", pathPrefix), ("operation", operation),
            ("since", since.map(String.init)), ("limit", limit.map(String.init)),
        ] {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        let answer = try await call("GET", endpoint, query: query)
        return answer["requests"]?.arrayValue?.map(RecordedRequest.init) ?? []
    }

    /// Empties the journal (`DELETE requests`).
    public func clearRequests() async throws {
        _ = try await call("DELETE", "requests")
    }

    /// Back to the fixture state: every app, or one (`POST reset[?app=]`), with stubs and the
    /// journal. On a server that also drops every session; on a session, only its own state.
    public func reset(app: String? = nil) async throws {
        _ = try await call("POST", "reset", query: app.map { [URLQueryItem(name: "app", value: $0)] } ?? [])
    }

    /// Adds a runtime stub (`POST stubs`) and returns its handle: its id, hits and near misses.
    @discardableResult
    public func stub(_ stub: MockStub) async throws -> MockStubHandle {
        let answer = try await call("POST", "stubs", body: stub.json)
        return MockStubHandle(
            id: answer["id"]?.stringValue ?? "",
            control: ControlEndpoint(controlBase: controlBase, adminToken: adminToken))
    }

    /// The stubs of this scope (the server's own, or this session's), as `GET stubs` lists them.
    public func stubs() async throws -> [ListedStub] {
        try await call("GET", "stubs")["stubs"]?.arrayValue?.map(ListedStub.init) ?? []
    }

    /// Adds a stub: `try await mock.stub(.get("/test/hello/World"), .status(503), times: 2)`.
    @discardableResult
    public func stub(
        _ match: RequestPattern, _ answer: StubResponse, priority: Int = StubDefinition.defaultPriority,
        times: Int? = nil
    ) async throws -> MockStubHandle {
        try await stub(MockStub(match: match, answer: answer, priority: priority, times: times))
    }

    /// Removes one stub, or every stub (`DELETE stubs[/id]`).
    public func removeStubs(id: String? = nil) async throws {
        _ = try await call("DELETE", id.map { "stubs/" + $0 } ?? "stubs")
    }

    /// One control-plane call; throws unless it answered 2xx.
    /// - Parameter timeout: how long the answer may take, when longer than URLSession's default
    ///   (a long poll).
    func call(
        _ method: String, _ endpoint: String, query: [URLQueryItem] = [], body: JSONValue? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> JSONValue {
        var components = URLComponents(
            url: controlBase.appendingPathComponent("__mockstack/" + endpoint), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = ControlSession.request(components.url!, token: adminToken)
        request.httpMethod = method
        if let timeout { request.timeoutInterval = max(request.timeoutInterval, timeout) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.encoded())
        }
        let (data, response) = try await ControlSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONParser().parse(Array(data)).root) ?? .null
        guard (200..<300).contains(status) else {
            throw MockStackControlError(
                status: status, message: json["message"]?.stringValue ?? String(decoding: data, as: UTF8.self))
        }
        return json
    }
}

/// One URLSession for control calls: no cookies, no caching, no proxies.
enum ControlSession {
    static let shared: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.connectionProxyDictionary = [:]
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// `MOCKSTACK_ADMIN_TOKEN`, when set and not empty.
    static var environmentToken: String? {
        ProcessInfo.processInfo.environment["MOCKSTACK_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A request to the control plane, carrying the admin token when there is one.
    static func request(_ url: URL, token: String?) -> URLRequest {
        var request = URLRequest(url: url)
        if let token { request.setValue(token, forHTTPHeaderField: AdminToken.header) }
        return request
    }
}

extension MockStackHandle {
    /// The server's own control plane: its root URL.
    public var controlBase: URL { baseURL }
}
