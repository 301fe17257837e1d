/// Connection-level misbehaviour the transport can produce for fault-injection tests; the raw
/// values are the names `X-MockStack-Fault` and stubs use.
public enum Fault: String, Sendable, Equatable, CaseIterable {
    /// Abort the connection with a TCP RST (clients see "connection reset by peer").
    case reset
    /// Close the connection without sending a byte (clients see an empty reply).
    case empty
    /// Send the head with `Transfer-Encoding: chunked`, half the body as a good chunk, then a
    /// chunk whose size line is not hexadecimal, and close.
    case malformedChunk = "malformed-chunk"
    /// Send the head with the full `Content-Length` but only half the body, and close.
    case truncate
    /// Never answer: hold the connection until the client gives up (or the transport's hang
    /// limit passes), then close it.
    case hang
    /// Send bytes that are not HTTP, then close.
    case randomThenClose = "random-then-close"

    /// Whether the client never gets a status line: what the journal records as status 0.
    public var withholdsStatusLine: Bool {
        switch self {
        case .reset, .empty, .hang, .randomThenClose: true
        case .malformedChunk, .truncate: false
        }
    }
}
