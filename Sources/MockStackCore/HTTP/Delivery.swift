/// How the transport sends a response: at once, later, in chunks, slowly, not at all, as the
/// start of another protocol, or once another thread has it.
public indirect enum Delivery: Sendable, Equatable {
    /// Send the whole response now.
    case immediate
    /// Wait this many milliseconds (the loop stays free meanwhile), then deliver as `then` says.
    case delayed(milliseconds: Int, then: Delivery = .immediate)
    /// Send the head now, then the body as chunked transfer coding, one chunk every
    /// `intervalMilliseconds` (the body is split into `chunkSize`-byte chunks).
    case chunked(chunkSize: Int, intervalMilliseconds: Int)
    /// Send the whole response with its `Content-Length`, but no faster than this many bytes a
    /// second (a slow network).
    case throttled(bytesPerSecond: Int)
    /// Misbehave on purpose instead of answering.
    case fault(Fault)
    /// Send the response (a `101 Switching Protocols`) and hand the connection over as a byte
    /// stream, to the handler the upgrade makes (an HTTP/1.0 request is refused with a 400).
    case upgrade(ConnectionUpgrade)
    /// Send the head now and the body as the stream's handler writes it, from any thread, until
    /// it closes the stream (``StreamedBody``): Server-Sent Events.
    case streamed(StreamedBody)
    /// The answer comes later, from any thread (``DeferredAnswer/complete(with:)``); the loop
    /// stays free meanwhile, and requests pipelined behind this one wait for it. The response
    /// carrying this delivery is sent, as it is, if the answer's timeout passes first.
    case deferred(DeferredAnswer)

    /// The fault it ends in, after any delay; nil when it answers.
    public var fault: Fault? {
        switch self {
        case .delayed(_, let then): then.fault
        case .fault(let fault): fault
        default: nil
        }
    }
}
