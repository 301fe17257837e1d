/// What one call of ``HTTP1RequestParser/parse(_:)`` did with the bytes it was given.
public enum HTTP1ParseStep: Sendable, Equatable {
    /// Every byte given was read (`consumed` is their count, 0 only when given none) and the
    /// request is not whole yet.
    case needMore(consumed: Int)
    /// A whole request ended after `consumed` bytes of those given; the rest (a pipelined request)
    /// was not read. The request's path and query are split as
    /// ``HTTPRequest/init(method:target:headers:body:mountPath:)`` splits them, and its body is
    /// decoded (chunks joined, trailers dropped).
    case complete(HTTP1Head, HTTPRequest, consumed: Int)
    /// The request is malformed or over a limit: answer `error` and close the connection. The
    /// parser answers every later call the same way until ``HTTP1RequestParser/reset()``.
    case failed(HTTP1ParseError, consumed: Int)
}
