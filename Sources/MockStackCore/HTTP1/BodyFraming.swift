/// How a request's head says its body is delimited (RFC 9112 §6.3).
public enum BodyFraming: Sendable, Equatable {
    /// Neither `Content-Length` nor `Transfer-Encoding`: the request has no body.
    case none
    /// `Content-Length`: exactly this many bytes follow the head.
    case length(Int)
    /// `Transfer-Encoding: chunked`: chunks follow the head, up to a zero-size chunk and trailers.
    case chunked
}
