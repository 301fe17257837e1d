/// The HTTP versions ``HTTP1RequestParser`` serves; any other `HTTP/x.y` is a 505.
public enum HTTP1Version: String, Sendable, Hashable {
    /// `HTTP/1.0`: the connection closes after the answer unless the request asks to keep it.
    case http10 = "HTTP/1.0"
    /// `HTTP/1.1`: the connection stays open unless the request asks to close it.
    case http11 = "HTTP/1.1"
}
