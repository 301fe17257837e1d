/// Standard reason phrases and status-code rules.
public enum HTTPStatus {
    /// The standard reason phrase for a status code ("Unknown Status" for unregistered codes).
    public static func phrase(for status: Int) -> String {
        phrases[status] ?? unknownPhrase
    }

    /// The phrase for codes with no registered one.
    public static let unknownPhrase = "Unknown Status"

    /// The statuses a configured answer (a stub, a fixture, a templated error) may give: the
    /// final ones. A 1xx is interim: sent as the answer, the client would wait for the real
    /// one after it, or (101) stop speaking HTTP.
    public static let finalStatuses = 200...599

    /// Whether a response with this status must not carry a body.
    public static func forbidsBody(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
        407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Payload Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot",
        422: "Unprocessable Entity", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
