public import MockStackCore

/// The `cors` package's middleware with its defaults (origin `*`, the six methods, preflight
/// answered with 204), which a generated Feathers app (v5 Express, and v4) runs before
/// anything else: every answer of its REST side, errors and not-found included, allows any
/// origin, and every `OPTIONS` request, on any path, is a preflight it answers itself.
/// The Engine.IO endpoint is not behind it (Socket.IO's own `cors` option governs it).
public enum CORSMiddleware {
    /// The default `methods`.
    public static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    /// The preflight answer: the origin, the methods, `Vary` for the reflected request
    /// headers, then those headers when the request names any, in the order `cors` sets them.
    /// (`cors` also sets `Content-Length: 0`, which mockstack's transport leaves out of a 204.)
    public static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [
            "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": allowedMethods,
            "Vary": "Access-Control-Request-Headers",
        ]
        if let requested = request.headers["Access-Control-Request-Headers"], !requested.isEmpty {
            headers.add("Access-Control-Allow-Headers", requested)
        }
        return HTTPResponse(status: 204, headers: headers)
    }

    /// Any other answer with `Access-Control-Allow-Origin: *` first, as `cors` sets it before
    /// the app writes its own headers.
    public static func allowingAnyOrigin(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if response.headers.areJSONContentTypeAlone {
            response.headers = anyOriginThenJSON
        } else {
            response.headers = HTTPHeaders([anyOrigin] + response.headers.fields)
        }
        return response
    }

    /// `Access-Control-Allow-Origin: *`, its line rendered once.
    private static let anyOrigin = HTTPHeaders.Field(name: "Access-Control-Allow-Origin", value: "*").prepared()
    private static let anyOriginThenJSON = HTTPHeaders([anyOrigin, .jsonContentType])
}
