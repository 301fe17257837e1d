/// An app of canned answers: each route maps a method and an exact path to a fixture file.
///
/// It is the simplest kind, for endpoints no emulation covers. Unknown paths get a 404 and
/// known paths with another method a 405 with `Allow`, both in ``PlainError``'s format. `HEAD`
/// is answered wherever `GET` is.
public struct StaticApp: MockApp {
    public struct Route: Sendable {
        public var method: HTTPMethod
        public var path: String
        public var fixtureName: String
        public var answer: FixtureResponse
    }

    public let name: String
    public let mount: String
    public var kind: String { StaticAppKind.kindName }
    private let ordered: [Route]
    /// Apps with more routes than this look them up in tables; fewer are scanned, which costs
    /// less than hashing the path. Either way a path matches by its UTF-8 bytes.
    private static let scanLimit = 16
    /// The answer by method and path (the first route wins), for apps with many routes.
    private let answers: [RouteKey: Route]
    /// Consulted only on a miss, to tell 405 (known path) from 404; for apps with many routes.
    private let methodsByPath: [[UInt8]: Set<HTTPMethod>]

    private struct RouteKey: Hashable {
        var method: HTTPMethod
        var path: [UInt8]
    }

    public init(name: String, mount: String, routes: [Route]) {
        self.name = name
        self.mount = mount
        ordered = routes
        let tabled = routes.count > Self.scanLimit ? routes : []
        answers = Dictionary(
            tabled.map { (RouteKey(method: $0.method, path: Array($0.path.utf8)), $0) },
            uniquingKeysWith: { first, _ in first })
        methodsByPath = Dictionary(grouping: tabled) { Array($0.path.utf8) }.mapValues { Set($0.map(\.method)) }
    }

    /// The route answering `method` at `path` (the first one listed).
    private func route(_ method: HTTPMethod, _ path: String) -> Route? {
        guard ordered.count <= Self.scanLimit else { return answers[RouteKey(method: method, path: Array(path.utf8))] }
        // By index, each route read in place: `first(where:)` copies every route it passes.
        for index in ordered.indices where ordered[index].method == method && ordered[index].path.hasSameUTF8(as: path)
        {
            return ordered[index]
        }
        return nil
    }

    /// The methods routes answer at `path`, nil when none does.
    private func methods(at path: String) -> Set<HTTPMethod>? {
        guard ordered.count <= Self.scanLimit else { return methodsByPath[Array(path.utf8)] }
        let methods = Set(ordered.lazy.filter { $0.path.hasSameUTF8(as: path) }.map(\.method))
        return methods.isEmpty ? nil : methods
    }

    public var routes: [RouteDescription] {
        ordered.map { RouteDescription(name: $0.fixtureName, methods: [$0.method.rawValue], path: $0.path) }
    }

    /// The fixture the route for the request's method and path names (`HEAD` finds `GET`'s).
    public func operation(for request: HTTPRequest) -> String? {
        route(for: request)?.fixtureName
    }

    /// The route answering the request, `HEAD` answered where `GET` is.
    private func route(for request: HTTPRequest) -> Route? {
        route(request.method == .head ? HTTPMethod.get : request.method, request.path)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if let route = route(for: request) {
            var response = route.answer.respond(to: request)
            response.operation = route.fixtureName
            return response
        }
        guard let methods = methods(at: request.path) else {
            return PlainError.response(404, "No route \(request.path) in app '\(name)' (mounted at \(mount))")
        }
        var allowed = Set(methods.map(\.rawValue))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return PlainError.methodNotAllowed(request.method, path: request.path, allowed: allowed.sorted())
    }
}

/// Builds ``StaticApp``s from manifests with `"kind": "static"` and a `routes` array:
/// `{"method": "GET", "path": "/hello", "fixture": "hello.json", "status": 200,
///   "contentType": "…", "headers": {"X-Name": "value"}, "verbatim": true}` (only `path` and `fixture`
///   required; `verbatim` serves a JSON file's bytes as they are, as `mockstack record` keeps them).
public struct StaticAppKind: AppKind {
    public static let kindName = "static"
    static let routeKeys: Set<String> = ["method", "path", "fixture", "status", "contentType", "headers", "verbatim"]

    public init() {}

    public var name: String { Self.kindName }
    public var manifestKeys: Set<String> { ["routes"] }

    public func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)? {
        var routes: [StaticApp.Route] = []
        var seen: [String: Int] = [:]
        if manifest.value(at: "/routes") == nil { manifest.report("a static app needs a 'routes' array", at: "") }
        for index in manifest.array("/routes").indices {
            let at = "/routes/\(index)"
            manifest.rejectUnknownKeys(at: at, allowed: Self.routeKeys)
            guard let route = makeRoute(at: at, manifest: manifest) else { continue }
            let key = route.method.rawValue + " " + route.path
            if let first = seen[key] {
                manifest.report("\(key) is already answered by /routes/\(first)", at: at)
                continue
            }
            seen[key] = index
            routes.append(route)
        }
        return StaticApp(name: name, mount: mount, routes: routes)
    }

    private func makeRoute(at: String, manifest: ManifestReader) -> StaticApp.Route? {
        let methodName = manifest.string(at + "/method") ?? "GET"
        let method = HTTPMethod(name: methodName)
        if method == nil || method?.isServed == false {
            manifest.report(
                "method '\(methodName)' is not one of \(HTTPMethod.served.map(\.rawValue).joined(separator: ", "))",
                at: at + "/method")
        }
        let path = manifest.string(at + "/path", required: true)
        if let path, !path.hasPrefix("/") || path.contains("?") {
            manifest.report("path '\(path)' must start with '/' and carry no query", at: at + "/path")
        }
        let status = manifest.int(at + "/status", in: HTTPStatus.finalStatuses) ?? 200
        let contentType = manifest.string(at + "/contentType")
        if let contentType, let problem = ConfiguredHeaderText.problem(name: "Content-Type", value: contentType) {
            manifest.report(problem, at: at + "/contentType")
        }
        let pairs = manifest.stringMap(at + "/headers")
        for (name, value) in pairs {
            if let problem = FramingHeaders.problem(with: name)
                ?? ConfiguredHeaderText.problem(name: name, value: value)
            {
                manifest.report(problem, at: at + "/headers/" + name)
            }
        }
        let headers = HTTPHeaders(
            pairs.filter { !FramingHeaders.contains($0.0) }.map { HTTPHeaders.Field(name: $0.0, value: $0.1) })
        guard let fixtureName = manifest.string(at + "/fixture", required: true),
            let file = manifest.appFile(named: fixtureName, at: at + "/fixture")
        else { return nil }
        let answer: FixtureResponse
        do {
            answer = try FixtureResponse(
                bytes: file.bytes, fileName: fixtureName, contentType: contentType, status: status, headers: headers,
                verbatim: manifest.value(at: at + "/verbatim")?.boolValue ?? false)
        } catch {
            manifest.report(
                FixtureDiagnostic(
                    file: manifest.displayPath(file.path), position: error.position, pointer: error.pointer,
                    message: "invalid JSON: \(error.message)"))
            return nil
        }
        guard let method, method.isServed, let path, path.hasPrefix("/") else { return nil }
        return StaticApp.Route(method: method, path: path, fixtureName: fixtureName, answer: answer)
    }
}
