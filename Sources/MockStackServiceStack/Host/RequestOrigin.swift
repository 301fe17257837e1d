public import MockStackCore

/// Where a client reached the app: what its answers' absolute URLs (`~/` paths, `/types`
/// links, the DTO files' `BaseUrl`) are made of. The header values are kept as sent, so two
/// requests with equal origins get the same base URL, and an answer cached under one origin
/// is served only to requests from it — without making the URL on every request.
public struct RequestOrigin: Hashable, Sendable {
    /// `X-Forwarded-Host`, `Host` and `X-Forwarded-Proto` as sent (a proxy in front, as in
    /// Docker behind one, names the client's view in the first and the last).
    public var forwardedHost: String?
    public var host: String?
    public var forwardedProto: String?
    /// The path the app was reached under (its mount, or a session's copy of it).
    public var mount: String
    /// Whether the request came over TLS: the scheme, when no proxy names one.
    public var isSecure: Bool

    /// The origin of `request`, its headers looked over once.
    public init(_ request: HTTPRequest) {
        var forwardedHost: String?
        var host: String?
        var forwardedProto: String?
        for field in request.headers.fields {
            // By length first: most names a request carries are neither.
            switch field.name.utf8.count {
            case 4 where host == nil && field.name.equalsIgnoringASCIICase("Host"): host = field.value
            case 16 where forwardedHost == nil && field.name.equalsIgnoringASCIICase("X-Forwarded-Host"):
                forwardedHost = field.value
            case 17 where forwardedProto == nil && field.name.equalsIgnoringASCIICase("X-Forwarded-Proto"):
                forwardedProto = field.value
            default: continue
            }
        }
        self.forwardedHost = forwardedHost
        self.host = host
        self.forwardedProto = forwardedProto
        mount = request.mountPath
        isSecure = request.isSecure
    }

    /// `scheme://host/mount`: the forwarded scheme and host when a proxy sent them (the first
    /// of a list: a chain of proxies lists the client's first), else the connection's own
    /// (`http`, or `https` over TLS) and `Host`.
    public var baseURL: String {
        let host = forwardedHost.flatMap(Self.firstOfList) ?? host ?? "localhost"
        let scheme = forwardedProto.flatMap(Self.firstOfList) ?? (isSecure ? "https" : "http")
        // Grown once, as bytes: each `String` append would check and grow the string anew.
        var url: [UInt8] = []
        url.reserveCapacity(scheme.utf8.count + 3 + host.utf8.count + mount.utf8.count)
        url += scheme.utf8
        url += Self.schemeSeparator
        url += host.utf8
        url += mount.utf8
        return String(decoding: url, as: UTF8.self)
    }

    private static let schemeSeparator = Array("://".utf8)

    /// The first item of a comma-separated header value, without its surrounding spaces; nil
    /// when it lists none.
    private static func firstOfList(_ value: String) -> String? {
        value.split(separator: ",").first.map { String($0.trimmingASCIISpace()) }
    }
}
