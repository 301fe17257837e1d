public import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An emulated FeathersJS server (spec `feathers.md`): memory services under their paths, the
/// REST transport's verb mapping and status rules for its dialect, and, when configured, the
/// authentication service with the local and jwt strategies.
public final class FeathersApp: RealtimeApp, Sendable {
    public let name: String
    public let mount: String
    public var kind: String { FeathersAppKind.kindName }
    public let dialect: FeathersDialect
    /// Services in manifest order.
    public let services: [MemoryService]
    public let authentication: FeathersAuthentication?
    let clock: @Sendable () -> Date
    /// Where the services' `created`, `updated`, `patched` and `removed` events go: the app's
    /// real-time connections. Calls over REST and over the socket publish alike.
    public let events = FeathersEventHub()
    /// Where the real-time connections' activity goes (the journal), once the control plane says.
    let activityObserverSlot = RealtimeActivitySlot()
    private let servicesByPath: [String: MemoryService]

    /// The app's Engine.IO endpoint, `socket.io/` under its mount: the real-time transport.
    public let realtime: EngineIOEndpoint

    /// Client bugs forgiven on request (off by default).
    public let compat: FeathersCompat
    /// Whether the app runs the `cors()` middleware a generated app puts first (``CORSMiddleware``).
    public let cors: Bool

    public init(
        name: String, mount: String, dialect: FeathersDialect, services: [MemoryService],
        authentication: FeathersAuthentication?, clock: @escaping @Sendable () -> Date = { Date() },
        realtime: EngineIOEndpoint = EngineIOEndpoint(), compat: FeathersCompat = FeathersCompat(), cors: Bool = true
    ) {
        self.name = name
        self.compat = compat
        self.cors = cors
        self.realtime = realtime
        self.mount = mount
        self.dialect = dialect
        self.services = services
        self.authentication = authentication
        self.clock = clock
        var byPath: [String: MemoryService] = [:]
        for service in services {
            byPath[dialect == .v4 ? service.options.path.lowercased() : service.options.path] = service
        }
        servicesByPath = byPath
    }

    /// Every service back to its fixture records (the control plane's reset).
    public func reset() {
        for service in services { service.reset() }
        realtime.closeAll()
        realtime.delayEvents(byMilliseconds: 0)
    }

    /// Services of its own with the fixture's records.
    public func makeSession() -> any MockApp {
        FeathersApp(
            name: name, mount: mount, dialect: dialect, services: services.map { $0.freshCopy() },
            authentication: authentication, clock: clock, realtime: realtime.fresh(), compat: compat, cors: cors)
    }

    public var routes: [RouteDescription] {
        services.flatMap { service -> [RouteDescription] in
            let options = service.options
            func verbs(hasId: Bool, _ listed: (ServiceMethod) -> Bool) -> [String] {
                ServiceMethod.restVerbs.compactMap { verb in
                    guard let method = ServiceMethod(restVerb: verb, hasId: hasId) else { return nil }
                    return options.methods.contains(method) && listed(method) ? verb.rawValue : nil
                }
            }
            let collection = verbs(hasId: false) { $0.isListedOnCollection(multi: options.multi) }
            let item = verbs(hasId: true, \.isListedOnRecord)
            return [
                RouteDescription(name: options.path, methods: collection, path: "/" + options.path),
                RouteDescription(name: options.path, methods: item, path: "/" + options.path + "/:id"),
            ]
        }
            + (authentication == nil
                ? []
                : [RouteDescription(name: "authentication", methods: ["POST", "DELETE"], path: "/authentication")])
    }

    // MARK: Routing

    /// `service.method` (`messages.find`, `authentication.create`) for the service and id the
    /// path names, as the answer's operation says it.
    public func operation(for request: HTTPRequest) -> String? {
        resolve(request.path).map { target, id in operationName(target, request, id: id) }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        // Node's HTTP parser refuses a method it does not know before anything else runs.
        guard NodeHTTPParser.accepts(request.methodName) else { return NodeHTTPParser.badRequest }
        // Engine.IO takes its path before any route, as it does on the HTTP server itself.
        if EngineIOEndpoint.handles(request.path) { return realtime.respond(to: request, app: self) }
        guard cors else { return route(request) }
        if request.method == .options { return CORSMiddleware.preflight(request) }
        return CORSMiddleware.allowingAnyOrigin(route(request))
    }

    /// What the app's middleware after `cors()` answers: a service, the authentication
    /// service, or the not-found handler.
    private func route(_ request: HTTPRequest) -> HTTPResponse {
        guard let (target, id) = resolve(request.path) else {
            // Express's notFound middleware: the URL as the app saw it, query included.
            let url = request.path + (request.query.map { "?" + $0 } ?? "")
            return FeathersError(.notFound, "Page not found", data: ["url": .string(url)]).response(dialect)
        }
        var response: HTTPResponse
        do {
            response = try call(target, id: id, request: request)
        } catch {
            response = error.response(dialect)
        }
        response.operation = operationName(target, request, id: id)
        if dialect == .v4 { response.headers.set("Allow", allow(target)) }
        return response
    }

    enum Target {
        case service(MemoryService)
        case authentication
    }

    /// The service and id a path names: `svc` or `svc/:id`, nothing deeper. v5 matches case
    /// and keeps a percent-encoded id as it is; v4 (Express) ignores case and decodes the id.
    func resolve(_ path: String) -> (Target, String?)? {
        let trimmed = Self.segments(of: path)
        func lookup(_ name: Substring) -> Target? {
            guard dialect == .v4 else {
                // Services are few: compared in turn, with no key to build and hash (the last
                // of two with one path, as the dictionary keeps it).
                if authentication != nil, name == "authentication" { return .authentication }
                return services.last { $0.options.path == name }.map(Target.service)
            }
            let key = name.lowercased()
            if authentication != nil, key == "authentication" { return .authentication }
            return servicesByPath[key].map(Target.service)
        }
        if let target = lookup(trimmed) { return (target, nil) }
        let ascii = trimmed.utf8.allSatisfy { $0 < 0x80 }
        guard let slash = ascii ? trimmed.utf8.lastIndex(of: UInt8(ascii: "/")) : trimmed.lastIndex(of: "/") else {
            return nil
        }
        guard let target = lookup(trimmed[..<slash]) else { return nil }
        let rawId = String(trimmed[trimmed.utf8.index(after: slash)...])
        return (target, dialect == .v4 ? PercentDecoding.decode(rawId) : rawId)
    }

    /// The path's segments joined by single slashes, without a slash at either end
    /// (`//a//b/` → `a/b`); usually the path without its leading slash.
    private static func segments(of path: String) -> Substring {
        let bytes = path.utf8
        var previous: UInt8 = 0
        var clean = bytes.count > 1
        // ASCII, a slash first, never two together and none last: nothing to take out.
        for byte in bytes {
            let first = previous == 0
            if byte >= 0x80 || (first && byte != UInt8(ascii: "/"))
                || (byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/"))
            {
                clean = false
                break
            }
            previous = byte
        }
        if clean, previous != UInt8(ascii: "/") { return path[bytes.index(after: bytes.startIndex)...] }
        return Substring(path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/"))
    }

    /// The method a verb calls on a route, and the 405s of docs/feathers.md#refused-methods.
    private func call(_ target: Target, id: String?, request: HTTPRequest) throws(FeathersError) -> HTTPResponse {
        let method: ServiceMethod
        switch request.method {
        case .options where dialect == .v4:
            // Without `cors()`, Express answers OPTIONS itself with the route's verbs (Unverified
            // for Feathers apps). v5's REST middleware has no OPTIONS: the 405 below.
            let verbs = allow(target).replacing("GET", with: "GET,HEAD")
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(verbs.utf8))
        case .head where dialect == .v4:
            // Express answers HEAD from the GET handler (Unverified for Feathers apps).
            var response = try call(
                target, id: id,
                request: HTTPRequest(
                    method: .get, target: request.target, headers: request.headers, mountPath: request.mountPath))
            response.body = []
            return response
        default:
            guard let mapped = ServiceMethod(restVerb: request.method, hasId: id != nil) else {
                // The verb as received (transport-commons' getServiceMethod).
                throw FeathersError(.methodNotAllowed, "Method \(request.methodName) not allowed")
            }
            if mapped == .create, dialect == .v5, let custom = request.headers["X-Service-Method"], !custom.isEmpty {
                // No custom methods are declared, and a standard one may not be named this way.
                throw FeathersError.methodNotSupported(custom)
            }
            method = mapped
        }
        // The header is read only by the calls that need a token.
        let readsToken = if case .service(let service) = target { service.needsToken(method) } else { true }
        let call = FeathersCall(
            method: method, id: id, data: try RequestBody.parse(request), query: QSParser().parse(request.query ?? ""),
            token: readsToken ? FeathersAuthentication.token(fromAuthorization: request.headers["Authorization"]) : nil)
        let result = try perform(call, on: target)
        // Express's res.format runs after the method: a client that takes no JSON gets an error
        // once the work is done (406 here; Express's error handler may make it a 500, Unverified).
        guard RequestBody.acceptsJSON(request.headers["Accept"]) else {
            throw FeathersError(.notAcceptable, "Not Acceptable")
        }
        return status(result.status, result.value)
    }

    /// Runs a service method, whichever transport asked: the authentication service, or a
    /// memory service behind its `authenticate` hook; then publishes what it changed to
    /// ``events``.
    func perform(_ call: FeathersCall, on target: Target) throws(FeathersError) -> (status: Int, value: JSONValue) {
        switch target {
        case .authentication:
            return try authenticationCall(call.method, id: call.id, body: call.data, token: call.token)
        case .service(let service):
            guard service.exposes(call.method) else { throw FeathersError.methodNotSupported(call.method.rawValue) }
            var query = call.query
            var user: JSONObject?
            if service.needsToken(call.method) {
                user = try authenticatedUser(token: call.token)
                // A generated v5 app's user query resolver: the caller's own record only.
                let idField = service.options.idField
                if service.options.ownRecordsOnly, let id = user?[idField] { query[idField] = id }
            }
            let result: (status: Int, value: JSONValue) = try ServiceCall(service: service, user: user, clock: clock)
                .perform(call.method, id: call.id, body: call.data, query: query)
            for (event, recipients) in events.publish(
                service: service.options.path, method: call.method, result: result.value)
            {
                report(
                    RealtimeActivity(
                        kind: .event, connection: nil, name: event.socketEventName, data: .array([event.record]),
                        recipients: recipients))
            }
            return result
        }
    }

    /// `messages.find`, `authentication.create`: the service and the method a verb calls.
    private func operationName(_ target: Target, _ request: HTTPRequest, id: String?) -> String {
        let called = ServiceMethod(restVerb: request.method, hasId: id != nil)
        if case .service(let service) = target, let called { return service.operationName(called) }
        let service = if case .service(let service) = target { service.options.path } else { "authentication" }
        return service + "." + (called?.rawValue ?? request.methodName)
    }

    /// The dialect's status rules (docs/feathers.md#status-codes): v5 201 for create before 204 for a falsy
    /// result, v4 the other way round.
    private func status(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        let falsy = !MemoryStore.isTruthy(value)
        if dialect == .v4, falsy { return HTTPResponse(status: 204) }
        if status == 201 { return .json(201, value) }
        return falsy ? HTTPResponse(status: 204) : .json(status, value)
    }

    /// v4's `Allow`: the verbs of the methods the service has, in route order.
    private func allow(_ target: Target) -> String {
        guard case .service(let service) = target else { return "POST,DELETE" }
        let methods = service.options.methods
        var verbs: [String] = []
        for verb in ServiceMethod.expressRouteOrder {
            // A verb is routed when it calls a method the service has, on the collection or a record.
            let onCollection = ServiceMethod(restVerb: verb, hasId: false).map(methods.contains) ?? false
            let onRecord = ServiceMethod(restVerb: verb, hasId: true).map(methods.contains) ?? false
            if onCollection || onRecord { verbs.append(verb.rawValue) }
        }
        return verbs.joined(separator: ",")
    }
}
