/// An HTTP request method as the transport reports it.
///
/// The transport recognises the methods HTTP defines; any other token arrives as ``unknown``
/// so that the router can answer it in the emulated server's own format instead of a bare 501.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case options = "OPTIONS"
    case trace = "TRACE"
    case connect = "CONNECT"
    /// A method token the HTTP parser did not recognise (PROPFIND, FOO, …); the request keeps
    /// the token itself (``HTTPRequest/methodName``).
    case unknown = "UNKNOWN"

    /// The methods mockstack serves; the others are answered with 405.
    public static let served: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// Whether mockstack routes requests with this method to an app.
    public var isServed: Bool { Self.served.contains(self) }

    /// Parses a method name case-sensitively, as HTTP requires.
    public init?(name: String) {
        guard let method = HTTPMethod(rawValue: name), method != .unknown else { return nil }
        self = method
    }
}
