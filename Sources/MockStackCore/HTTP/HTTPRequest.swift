/// A complete HTTP request as the transport received it: plain values, no sockets.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request target exactly as sent (`/test/api/Hello?name=World`).
    public var target: String
    /// The path part of ``target``, still percent-encoded, without the query.
    public var path: String
    /// The raw query string after `?`, still percent-encoded, or `nil` when there was no `?`.
    public var query: String?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The path prefix an app is mounted at, once the request has been routed to one (`/test`).
    /// Empty for requests served at the root of a port.
    public var mountPath: String

    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        mountPath: String = ""
    ) {
        self.method = method
        self.target = target
        let (path, query) = Self.split(target: target)
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.mountPath = mountPath
    }

    /// Splits a request target into its path and raw query; absolute-form targets
    /// (`http://host/path`) are reduced to their path.
    static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy(\.isLetter),
           rest[colon...].hasPrefix("://") {
            let afterAuthority = rest[rest.index(colon, offsetBy: 3)...]
            rest = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterAuthority[$0...] } ?? "/"
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        guard let mark = rest.firstIndex(of: "?") else {
            return (rest.isEmpty ? "/" : String(rest), nil)
        }
        let path = rest[..<mark]
        return (path.isEmpty ? "/" : String(path), String(rest[rest.index(after: mark)...]))
    }

    /// The same request as an app mounted at `prefix` sees it: `path` relative to the mount.
    public func routed(toMount prefix: String) -> HTTPRequest {
        var copy = self
        copy.mountPath = prefix
        let relative = path.dropFirst(prefix.count)
        copy.path = relative.isEmpty ? "/" : String(relative)
        return copy
    }
}
