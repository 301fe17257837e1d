public import MockStackCore

/// The cross-origin (CORS) headers an emulated host sends, as its real one is set up
/// (`host.cors` in the manifest). Two set-ups exist among the real hosts:
///
/// - `CorsFeature`, ServiceStack's plugin (test.servicestack.net, AI Server): its headers on
///   every answer — `Access-Control-Allow-Origin` (`*`, or the request's `Origin` when the
///   whitelist holds it), `-Allow-Methods`, `-Allow-Headers`, `-Allow-Credentials`,
///   `-Expose-Headers`, `-Max-Age` — and every `OPTIONS` answered `200` with them, no body.
/// - `UseCors`, ASP.NET Core's middleware with a default policy (techstacks.io): nothing
///   without an allowed `Origin`; then `Access-Control-Allow-Origin` (that origin),
///   `-Allow-Credentials`, `-Expose-Headers` and `Vary: Origin` on answers, and a preflight
///   (`OPTIONS` with `Access-Control-Request-Method`) answered `204` with `-Allow-Headers`,
///   `-Allow-Methods` and `-Max-Age`, comma-joined without spaces. A preflight from an origin
///   the policy refuses is a bare `204`.
public struct CorsPolicy: Sendable, Equatable {
    public enum Middleware: String, Sendable {
        case corsFeature = "CorsFeature"
        case useCors = "UseCors"
    }

    public let middleware: Middleware
    /// The origins allowed; `["*"]` (CorsFeature's default) allows any.
    public let origins: [String]
    public let methods: [String]
    public let headers: [String]
    public let allowCredentials: Bool
    public let exposeHeaders: [String]
    /// Seconds a preflight may be cached (`Access-Control-Max-Age`), nil for none.
    public let maxAge: Int?

    /// Whether any origin is allowed (`["*"]`).
    private let allowsAnyOrigin: Bool
    /// CorsFeature's headers (`Access-Control-Allow-Origin` among them only when it is `*`),
    /// made once: joining the lists for every answer was the costliest part of a short answer.
    private let featureFields: [HTTPHeaders.Field]
    /// UseCors's `Access-Control-Expose-Headers` value, and its preflight's headers after the
    /// origin and credentials.
    private let exposedList: String?
    private let preflightFields: [HTTPHeaders.Field]
    /// The JSON `Content-Type` then CorsFeature's headers: what most answers end up with, one
    /// shared list rather than a new one grown for each.
    private let jsonAnswerFields: HTTPHeaders

    /// CorsFeature's defaults: any origin, its seven methods, `Content-Type`, 600 s.
    public static let corsFeatureMethods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]

    public init(
        middleware: Middleware, origins: [String], methods: [String], headers: [String], allowCredentials: Bool,
        exposeHeaders: [String], maxAge: Int?
    ) {
        self.middleware = middleware
        self.origins = origins
        self.methods = methods
        self.headers = headers
        self.allowCredentials = allowCredentials
        self.exposeHeaders = exposeHeaders
        self.maxAge = maxAge
        allowsAnyOrigin = origins == ["*"]
        // CorsFeature joins its lists with ", ", in the order it registers the headers; with
        // any origin allowed, its `*` comes first.
        var feature: [HTTPHeaders.Field] =
            allowsAnyOrigin ? [.init(name: "Access-Control-Allow-Origin", value: "*")] : []
        if !methods.isEmpty {
            feature.append(.init(name: "Access-Control-Allow-Methods", value: methods.joined(separator: ", ")))
        }
        if !headers.isEmpty {
            feature.append(.init(name: "Access-Control-Allow-Headers", value: headers.joined(separator: ", ")))
        }
        if allowCredentials { feature.append(.init(name: "Access-Control-Allow-Credentials", value: "true")) }
        if !exposeHeaders.isEmpty {
            feature.append(.init(name: "Access-Control-Expose-Headers", value: exposeHeaders.joined(separator: ", ")))
        }
        if let maxAge { feature.append(.init(name: "Access-Control-Max-Age", value: String(maxAge))) }
        featureFields = feature.map { $0.prepared() }
        jsonAnswerFields = HTTPHeaders([.jsonContentType] + featureFields)
        // UseCors joins without spaces.
        exposedList = exposeHeaders.isEmpty ? nil : exposeHeaders.joined(separator: ",")
        var preflight: [HTTPHeaders.Field] = []
        if !headers.isEmpty {
            preflight.append(.init(name: "Access-Control-Allow-Headers", value: headers.joined(separator: ",")))
        }
        if !methods.isEmpty {
            preflight.append(.init(name: "Access-Control-Allow-Methods", value: methods.joined(separator: ",")))
        }
        if let maxAge { preflight.append(.init(name: "Access-Control-Max-Age", value: String(maxAge))) }
        preflightFields = preflight.map { $0.prepared() }
    }

    public static func == (a: CorsPolicy, b: CorsPolicy) -> Bool {
        a.middleware == b.middleware && a.origins == b.origins && a.methods == b.methods && a.headers == b.headers
            && a.allowCredentials == b.allowCredentials && a.exposeHeaders == b.exposeHeaders && a.maxAge == b.maxAge
    }

    /// Whether the CORS layer answers the request itself, before the app: any `OPTIONS` for
    /// CorsFeature, a preflight from an `Origin` for UseCors.
    public func takes(_ request: HTTPRequest) -> Bool {
        guard request.method == .options else { return false }
        return middleware == .corsFeature
            || (request.headers.contains("Origin") && request.headers.contains("Access-Control-Request-Method"))
    }

    /// The answer to a request the CORS layer takes before the app, or nil; journaled with the
    /// middleware's name (`CorsFeature`, `UseCors`) as its operation.
    public func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        guard takes(request) else { return nil }
        switch middleware {
        case .corsFeature:
            var response = HTTPResponse(status: 200)
            response.operation = middleware.rawValue
            addCorsFeatureHeaders(to: &response, origin: request.headers["Origin"])
            return response
        case .useCors:
            var response = HTTPResponse(status: 204)
            response.operation = middleware.rawValue
            guard let origin = request.headers["Origin"], allows(origin) else { return response }
            response.headers.add("Access-Control-Allow-Origin", origin)
            if allowCredentials { response.headers.add("Access-Control-Allow-Credentials", "true") }
            response.headers.add(preflightFields)
            if origins.count > 1 { response.headers.add("Vary", "Origin") }
            return response
        }
    }

    /// Adds the headers an answer from the app carries.
    public func apply(to response: inout HTTPResponse, for request: HTTPRequest) {
        let origin = request.headers["Origin"]
        switch middleware {
        case .corsFeature:
            addCorsFeatureHeaders(to: &response, origin: origin)
        case .useCors:
            guard let origin, allows(origin) else { return }
            response.headers.add("Access-Control-Allow-Origin", origin)
            if allowCredentials { response.headers.add("Access-Control-Allow-Credentials", "true") }
            if let exposedList { response.headers.add("Access-Control-Expose-Headers", exposedList) }
            // Unverified: techstacks.io adds the middleware twice, which may repeat this header.
            if origins.count > 1 { response.headers.add("Vary", "Origin") }
        }
    }

    private func allows(_ origin: String) -> Bool {
        allowsAnyOrigin || origins.contains(origin)
    }

    /// CorsFeature's global headers, in the order it registers them; with a whitelist, the
    /// allowed origin comes from a request filter that runs before them.
    private func addCorsFeatureHeaders(to response: inout HTTPResponse, origin: String?) {
        if !allowsAnyOrigin, let origin, origins.contains(origin) {
            response.headers.add(
                [HTTPHeaders.Field(name: "Access-Control-Allow-Origin", value: origin)] + featureFields)
        } else if response.headers.areJSONContentTypeAlone {
            response.headers = jsonAnswerFields
        } else {
            response.headers.add(featureFields)
        }
    }
}
