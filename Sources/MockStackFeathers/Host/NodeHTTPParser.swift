public import MockStackCore

/// What Node's HTTP parser (llhttp) does with a request method before a Feathers app sees
/// the request: it knows a fixed list of methods, case-sensitively, and refuses any other
/// token; the server then writes a bare `400 Bad Request` and closes the connection.
public enum NodeHTTPParser {
    /// The methods llhttp 9 takes on an `HTTP/1.x` request line (its HTTP/1 list: RFC 9110,
    /// WebDAV, Subversion, UPnP, CalDAV, `PURGE`, `QUERY`, `SOURCE`). RTSP's methods are
    /// refused on an HTTP request line, and so is `PRI`, which llhttp takes only as the start
    /// of the HTTP/2 preface (`PRI * HTTP/2.0`).
    public static let methods: Set<String> = [
        "DELETE", "GET", "HEAD", "POST", "PUT", "CONNECT", "OPTIONS", "TRACE", "PATCH", "LINK", "UNLINK",
        "COPY", "LOCK", "MKCOL", "MOVE", "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL",
        "REPORT", "MKACTIVITY", "CHECKOUT", "MERGE",
        "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE",
        "MKCALENDAR", "PURGE", "QUERY", "SOURCE",
    ]

    /// Whether Node would hand a request with this method (as spelled) to the app.
    public static func accepts(_ methodName: String) -> Bool { methods.contains(methodName) }

    /// Node's answer to a request its parser refuses: `HTTP/1.1 400 Bad Request`,
    /// `Connection: close`, no body, and the connection closed. (mockstack's transport adds its
    /// `Date` and `Content-Length: 0`, which Node's bare answer does not have.)
    public static var badRequest: HTTPResponse {
        HTTPResponse(status: 400, headers: ["Connection": "close"])
    }
}
