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
    /// (`http://host/path`) are reduced to their path. Works on the UTF-8 bytes: this runs for
    /// every request, and the delimiters are all ASCII.
    static func split(target: String) -> (path: String, query: String?) {
        var target = target
        return target.withUTF8 { bytes in
            var pathStart = 0
            if bytes.first != UInt8(ascii: "/"), let authority = authorityStart(in: bytes) {
                pathStart = bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
            }
            let end = bytes[pathStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
            let mark = bytes[pathStart..<end].firstIndex(of: UInt8(ascii: "?"))
            let pathEnd = mark ?? end
            let path = pathStart == pathEnd ? "/" : String(utf8: bytes[pathStart..<pathEnd])
            return (path, mark.map { String(utf8: bytes[($0 + 1)..<end]) })
        }
    }

    /// Where the authority starts in an absolute-form target (after `scheme://`), if it is one.
    private static func authorityStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[..<colon].allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }),
              bytes[colon...].starts(with: "://".utf8) else { return nil }
        return colon + 3
    }

    /// The same request as an app mounted at `prefix` sees it: `path` relative to the mount.
    public func routed(toMount prefix: String) -> HTTPRequest {
        var copy = self
        copy.mountPath = prefix
        let dropped = prefix.utf8.count
        if dropped > 0 {
            copy.path = copy.path.withUTF8 { bytes in
                bytes.count <= dropped ? "/" : String(utf8: bytes[dropped...])
            }
        }
        return copy
    }
}

extension String {
    /// A string of the UTF-8 bytes in a slice of a buffer (repairing any invalid sequence).
    init(utf8 bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        self.init(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }
}
