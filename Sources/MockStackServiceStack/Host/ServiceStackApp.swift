public import MockStackCore

/// An emulated ServiceStack server (test.servicestack.net, AI Server, or a user's own), driven
/// by its `/types/metadata` document: routes and DTOs come from the metadata, what each
/// operation does from the behaviour its manifest names.
public struct ServiceStackApp: MockApp {
    public let name: String
    public let mount: String
    public var kind: String { ServiceStackAppKind.kindName }
    public private(set) var context: AppContext
    public let metadata: MetadataTypes
    private let routeTable: ServiceStackRoutes
    /// In metadata order: the router's matches index into it. Each is resolved (its request
    /// and return types, its behaviour made ready for them) when first called: the real hosts
    /// publish a few hundred operations, and a test run calls a handful.
    private let operations: [ResolvedOnFirstUse<ServiceOperation>]
    /// The operations' `[CacheResponse]` caches, emptied by ``reset()`` without resolving them.
    private let caches: [ResponseCache]
    private let apiKeys: APIKeyPolicy?
    private let document: MetadataDocument
    /// The DTO file writers, made for the first `/types/{language}` request.
    private let generators: ResolvedOnFirstUse<DTOGenerators>
    /// Generated DTO files by request target and base URL: generation takes milliseconds, a
    /// repeat is served as it was (its `Date:` at most a minute old).
    private let typesCache = ResponseCache(seconds: 60, byteLimit: 16 << 20, entryLimit: 256, largestBody: 4 << 20)
    /// The app folder's files its data names by `~/` paths.
    private let files: VirtualFiles

    /// - Parameter operations: the app's operations, resolved.
    public init(
        name: String, mount: String, metadata: MetadataTypes, context: AppContext, operations: [ServiceOperation],
        apiKeys: APIKeyPolicy? = nil
    ) {
        self.init(
            name: name, mount: mount, metadata: metadata, context: context,
            operations: operations.map { operation in
                (operation.metadata, operation.cache, ResolvedOnFirstUse { operation })
            },
            apiKeys: apiKeys, files: VirtualFiles())
    }

    /// - Parameter operations: each operation's metadata and cache, and the operation resolved on first use.
    init(
        name: String, mount: String, metadata: MetadataTypes, context: AppContext,
        operations: [(
            metadata: MetadataOperation, cache: ResponseCache?, resolved: ResolvedOnFirstUse<ServiceOperation>
        )],
        apiKeys: APIKeyPolicy?, files: VirtualFiles
    ) {
        self.files = files
        self.name = name
        self.mount = mount
        self.metadata = metadata
        self.context = context
        self.apiKeys = apiKeys
        document = MetadataDocument(metadata: metadata)
        let swiftVersion = context.host.swiftVersion
        generators = ResolvedOnFirstUse { DTOGenerators(metadata: metadata, swiftVersion: swiftVersion) }
        self.operations = operations.map(\.resolved)
        caches = operations.compactMap(\.cache)
        routeTable = ServiceStackRoutes(
            operations: operations.map(\.metadata), serverEvents: context.serverEvents != nil)
    }

    public var routes: [RouteDescription] { routeTable.listing }

    /// ServiceStack binds query and form names in any case.
    public var parameterNamesIgnoreCase: Bool { true }

    /// The operation the route for the path and verb reaches (``RequestVerb``'s verb, as the
    /// answer takes it), or the native-types service's name; for what the CORS layer answers,
    /// its name (`CorsFeature`), and for a file, its path.
    public func operation(for request: HTTPRequest) -> String? {
        if let cors = context.host.cors, cors.takes(request) { return cors.middleware.rawValue }
        if let file = files.operation(for: request) { return file }
        // Read as the answer reads it: a request whose query or form cannot be read reaches none.
        guard let input = try? RequestInput(request, limits: context.host.limits) else { return nil }
        return routeTable.destination(path: request.path, verb: RequestVerb.of(request, input: input)).operation
    }

    /// `/types`: each language's DTO link, by the names ServiceStack gives them. `Metadata`,
    /// `Swift`, `Python`, `TypeScript` and `Php` are generated here; the other links answer 404.
    static let typeLinks: [(name: String, path: String)] = [
        ("Metadata", "metadata"), ("CSharp", "csharp"), ("FSharp", "fsharp"), ("VbNet", "vbnet"),
        ("TypeScript", "typescript"),
        ("TypeScriptDefinition", "typescript.d"), ("CommonJs", "js"), ("Mjs", "mjs"), ("Php", "php"), ("Dart", "dart"),
        ("Java", "java"), ("Kotlin", "kotlin"), ("Swift", "swift"), ("Python", "python"), ("Ruby", "ruby"),
        ("Go", "go"),
        ("Rust", "rust"), ("Zig", "zig"),
    ]

    /// Forgets sessions, invalidated tokens and cached answers: the app as its fixtures made it.
    public func reset() {
        context.auth?.reset()
        context.serverEvents?.reset()
        typesCache.removeAll()
        for cache in caches { cache.removeAll() }
    }

    /// Its own sign-ins, invalidated tokens and Server Events; the metadata, routes and caches
    /// (which only hold what any caller would get) are shared.
    public func makeSession() -> any MockApp {
        var copy = self
        copy.context = context.forSession()
        return copy
    }

    /// The app's answer (or one of its files) with the host's cross-origin headers; or the CORS
    /// layer's own answer to a preflight. An operation's answer has its `~/` paths resolved.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if let preflight = context.host.cors?.preflight(request) { return preflight }
        var response = files.isEmpty ? answer(request) : files.respond(to: request) ?? answer(request)
        context.host.cors?.apply(to: &response, for: request)
        return response
    }

    /// Parses what binding needs and answers where the routes send the request: a native-types
    /// service (to any verb, as ServiceStack's `Any` services do) or an operation.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let now = context.host.clock()
        let errors = ErrorRenderer(context: context)
        let input: RequestInput
        do {
            input = try RequestInput(request, limits: context.host.limits)
        } catch {
            return errors.response(
                for: error, operation: nil, request: nil, verb: request.method.rawValue, jsconfig: nil, now: now)
        }
        let jsconfig = RequestInput.value(named: "jsconfig", in: input.query)
        let verb = RequestVerb.of(request, input: input)
        switch routeTable.destination(path: request.path, verb: verb) {
        case .nativeTypes(let route):
            var response = nativeTypes(route.service, request: request, input: input, now: now)
            response.operation = route.name
            return response
        case .serverEvents(let route):
            guard let hub = context.serverEvents else { return HTTPResponse(status: 404) }
            var response = answerServerEvents(route, hub: hub, request: request, input: input, verb: verb, now: now)
            response.operation = route.name
            return response
        case .routed(.notFound):
            // test.servicestack.net answers non-ServiceStack paths with a bare 404 (Derived from source).
            return HTTPResponse(status: 404)
        case .routed(.unknownOperation):
            return errors.response(
                for: .operationDoesNotExist, operation: nil, request: nil, verb: verb, jsconfig: jsconfig, now: now)
        case .routed(.operation(let match)):
            let operation = operations[match.index].value
            var response = invoke(
                operation, match: match, request: request, input: input, verb: verb, jsconfig: jsconfig, now: now)
            response.operation = operation.name
            return response
        }
    }

    /// `/types`, `/types/metadata` or a generated DTO file (kept a minute per target and base URL).
    private func nativeTypes(
        _ service: NativeTypesRoute.Service, request: HTTPRequest, input: RequestInput,
        now: DateTimeValue
    ) -> HTTPResponse {
        let origin = RequestOrigin(request)
        switch service {
        case .typeLinks:
            let links = Self.typeLinks.map { link in
                (key: link.name, value: JSONValue.string("\(origin.baseURL)/types/\(link.path)"))
            }
            return HTTPResponse.json(200, .object(JSONObject(links)))
        case .metadata:
            return HTTPResponse.json(200, bytes: document.render(query: input.query, baseURL: origin.baseURL))
        case .dtos(let language):
            let key = ResponseCache.Key(target: request.target, origin: origin)
            if let cached = typesCache.response(for: key, now: now) { return cached }
            let text = dtos(language, query: input.query, baseURL: origin.baseURL)
            let response = HTTPResponse(
                status: 200, headers: ["Content-Type": language.contentType], body: Array(text.utf8))
            return typesCache.store(response, for: key, now: now)
        }
    }

    /// Admits the caller, binds the request DTO(s), runs the behaviour and writes the answer.
    private func invoke(
        _ operation: ServiceOperation, match: OperationRouter.Match, request: HTTPRequest, input: RequestInput,
        verb: String, jsconfig: String?, now: DateTimeValue
    ) -> HTTPResponse {
        let errors = ErrorRenderer(context: context)
        let session: AuthSession?
        switch admission(to: operation, request: request, query: input.query, now: now) {
        case .success(let found): session = found
        case .failure(.unauthenticated): return HTTPResponse(status: 401)
        case .failure(.error(let error)):
            return errors.response(
                for: error, operation: operation, request: nil, verb: verb, jsconfig: jsconfig, now: now)
        }
        // `[CacheResponse]` runs after the auth filters, and only for plain GETs.
        // An app whose data names files by `~/` paths answers with them resolved through the
        // URL the client used (``VirtualFiles/resolve(_:base:)``): once, before the answer is
        // cached, under a key holding that URL, so that a cached answer is served as it is
        // rather than scanned again on every request.
        let origin = files.isEmpty ? nil : RequestOrigin(request)
        let cacheKey =
            operation.cache == nil || match.isBatch || match.isOneWay
            ? nil
            : ResponseCache.key(for: request, verb: verb, origin: origin)
        if let cacheKey, let cached = operation.cache?.response(for: cacheKey, now: now) { return cached }

        let binder = RequestBinder(coercion: context.coercion)
        // One bound request DTO through the behaviour.
        func perform(_ dto: DTOObject) throws(ServiceError) -> ServiceResult {
            guard operation.implements(verb) else {
                let method = verb.prefix(1) + verb.dropFirst().lowercased()
                throw ServiceError(
                    .notImplemented,
                    """
                    Could not find method named \(method)(\(operation.name)) or Any(\(operation.name)) on Service \
                    \(operation.serviceClass)
                    """
                )
            }
            return try operation.behaviour.perform(
                ServiceCall(
                    operation: operation, request: dto, http: request, input: input, verb: verb,
                    session: session, now: now, context: context))
        }
        var response: HTTPResponse
        if match.isBatch {
            let requests: [DTOObject]
            do {
                requests = try binder.bindBatch(input, to: operation.requestType, operation: operation.name)
            } catch {
                return errors.response(
                    for: error, operation: operation, request: nil, verb: verb, jsconfig: jsconfig, now: now)
            }
            var results: [ServiceResult] = []
            results.reserveCapacity(requests.count)
            for (index, dto) in requests.enumerated() {
                do throws(ServiceError) {
                    results.append(try perform(dto))
                } catch {
                    var response = errors.response(
                        for: error, operation: operation, request: dto, verb: verb, jsconfig: jsconfig, now: now)
                    response.headers.set("X-AutoBatch-Completed", String(index))
                    return response
                }
            }
            if match.isOneWay { return HTTPResponse(status: 204) }
            response = batchResponse(results, operation: operation, jsconfig: jsconfig)
        } else {
            // A single request, the usual case, without the batch's arrays.
            let dto: DTOObject
            let result: ServiceResult
            do {
                dto = try binder.bind(
                    input, pathVariables: match.pathVariables, to: operation.requestType, operation: operation.name)
            } catch {
                return errors.response(
                    for: error, operation: operation, request: nil, verb: verb, jsconfig: jsconfig, now: now)
            }
            do throws(ServiceError) {
                result = try perform(dto)
            } catch {
                return errors.response(
                    for: error, operation: operation, request: dto, verb: verb, jsconfig: jsconfig, now: now)
            }
            if match.isOneWay { return HTTPResponse(status: 204) }
            response = render(result, operation: operation, jsconfig: jsconfig)
        }
        if let origin { VirtualFiles.resolve(&response, base: origin.baseURL) }
        if let cacheKey { operation.cache?.store(response, for: cacheKey, now: now) }
        return response
    }

    /// The `/types/swift` file for these query options, dated now (or at the fixed date).
    public func swiftDTOs(query: [(name: String, value: String)], baseURL: String) -> String {
        dtos(.swift, query: query, baseURL: baseURL)
    }

    /// The `/types/{language}` file for these query options, dated now (or at the fixed date).
    public func dtos(_ language: DTOLanguage, query: [(name: String, value: String)], baseURL: String) -> String {
        let date = context.host.typesDate ?? context.host.clock()
        return generators.value.render(language, query: query, date: date, baseURL: baseURL)
    }

    /// Why a caller may not invoke an operation.
    private enum Refusal: Error {
        /// `[Authenticate]` without a session: a bare 401, no body (docs/servicestack.md#authentication).
        case unauthenticated
        case error(ServiceError)
    }

    /// The caller's session, if any, once its credentials and the operation's requirements
    /// (API key, authentication, roles) agree; otherwise why not.
    private func admission(
        to operation: ServiceOperation, request: HTTPRequest, query: [(name: String, value: String)],
        now: DateTimeValue
    ) -> Result<AuthSession?, Refusal> {
        var session: AuthSession?
        var refusedCredentials: ServiceError?
        switch context.auth?.identify(request, query: query, now: now) ?? .anonymous {
        case .anonymous: break
        case .authenticated(let found): session = found
        case .rejected(let error):
            // Expired, invalidated or forged bearer tokens fail every call but those that issue tokens.
            if !operation.behaviour.issuesTokens { return .failure(.error(error)) }
        case .refusedCredentials(let error): refusedCredentials = error
        }
        if operation.metadata.requiresApiKey, let apiKeys, !apiKeys.accepts(request) {
            return .failure(.error(.http(401, "Invalid API Key")))
        }
        let roles = operation.metadata.requiredRoles
        if operation.metadata.requiresAuth || !roles.isEmpty {
            guard let session else { return .failure(refusedCredentials.map(Refusal.error) ?? .unauthenticated) }
            // ServiceStack lets the Admin role through every role check.
            if !session.roles.contains("Admin"), roles.contains(where: { !session.roles.contains($0) }) {
                return .failure(.error(.http(403, "Invalid Role")))
            }
        }
        return .success(session)
    }

    private func render(_ result: ServiceResult, operation: ServiceOperation, jsconfig: String?) -> HTTPResponse {
        switch result.body {
        case .empty:
            return HTTPResponse(status: result.status == 200 ? 204 : result.status, headers: result.headers)
        case .response(let response):
            return response
        case .raw(let bytes, let contentType):
            var headers = result.headers
            // ServiceStack adds a charset to text results that name none.
            headers.set(
                "Content-Type",
                contentType.hasPrefix("text/") && !contentType.contains(";")
                    ? contentType + "; charset=utf-8" : contentType)
            return HTTPResponse(status: result.status, headers: headers, body: bytes)
        case .dto(let value):
            guard !value.isNull else { return HTTPResponse(status: 204, headers: result.headers) }
            let writer = context.writer(operation.dialect, jsconfig: jsconfig)
            let bytes =
                if let shape = result.shape {
                    writer.bytes(value, as: shape)
                } else {
                    writer.bytes(value, as: operation.returnShape ?? .any, type: operation.returnType)
                }
            return .json(result.status, bytes: bytes, headers: result.headers)
        }
    }

    /// `POST /api/{Op}[]`: the responses as one array, in order, with `X-AutoBatch-Completed`;
    /// a batch of void operations answers 204 (Unverified).
    private func batchResponse(
        _ results: [ServiceResult], operation: ServiceOperation, jsconfig: String?
    ) -> HTTPResponse {
        let headers: HTTPHeaders = ["X-AutoBatch-Completed": String(results.count)]
        let values = results.compactMap { result -> DTOValue? in
            if case .dto(let value) = result.body { return value }
            return nil
        }
        guard let shape = operation.returnShape, values.count == results.count else {
            return HTTPResponse(status: 204, headers: headers)
        }
        let writer = context.writer(operation.dialect, jsconfig: jsconfig)
        return .json(200, bytes: writer.bytes(.list(values), as: .list(shape)), headers: headers)
    }
}

/// Which API keys an app with `[ValidateApiKey]` operations accepts (AI Server, docs/servicestack.md#authentication).
public struct APIKeyPolicy: Sendable {
    /// Keys accepted exactly.
    public var keys: Set<String>
    /// Accept any non-empty bearer key: test runs pass arbitrary keys (Mock choice).
    public var acceptAny: Bool

    public init(keys: Set<String>, acceptAny: Bool) {
        self.keys = keys
        self.acceptAny = acceptAny
    }

    func accepts(_ request: HTTPRequest) -> Bool {
        guard let authorization = request.headers["Authorization"], authorization.lowercased().hasPrefix("bearer ")
        else { return false }
        let key = authorization.dropFirst(7).trimmingASCIISpace()
        return !key.isEmpty && (acceptAny || keys.contains(String(key)))
    }
}
