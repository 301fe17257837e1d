/// The HTTP versions ``HTTP1RequestParser`` serves; any other `HTTP/x.y` is a 505.
public enum HTTP1Version: String, Sendable, Hashable {
    case http10 = "HTTP/1.0"
    case http11 = "HTTP/1.1"
}
