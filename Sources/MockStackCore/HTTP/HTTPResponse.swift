/// A response value: what to send, and how the transport should deliver it.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int { didSet { preparedHead = nil } }
    /// The reason phrase; `nil` uses the standard one for ``status``.
    public var reason: String? { didSet { preparedHead = nil } }
    public var headers: HTTPHeaders { didSet { preparedHead = nil } }
    public var body: [UInt8] { didSet { preparedHead = nil } }
    public var delivery: Delivery
    /// What answered — an operation, a service method, a fixture — for the request journal;
    /// never sent, and not part of equality.
    public var operation: String?
    /// The head rendered ahead of time; cleared by any change to what it was rendered from.
    private var preparedHead: RenderedHead?

    public init(
        status: Int,
        reason: String? = nil,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        delivery: Delivery = .immediate
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    /// A JSON response with `Content-Type: application/json; charset=utf-8`.
    public static func json(_ status: Int, _ value: JSONValue, headers: HTTPHeaders = [:]) -> HTTPResponse {
        json(status, bytes: value.encoded(), headers: headers)
    }

    /// A JSON response from bytes that are already encoded.
    public static func json(_ status: Int, bytes: [UInt8], headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all = headers
        if !all.contains("Content-Type") { all.add("Content-Type", MediaType.json) }
        return HTTPResponse(status: status, headers: all, body: bytes)
    }

    /// The status line and headers as bytes: rendered ahead of time by ``preparingHead()``, or now.
    public var head: RenderedHead { preparedHead ?? RenderedHead(self) }

    /// The same response with its head rendered once, for answers served many times.
    public func preparingHead() -> HTTPResponse {
        var prepared = self
        prepared.preparedHead = RenderedHead(self)
        return prepared
    }

    /// Equal when they would send the same thing; a prepared head is only a cache.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.reason == rhs.reason && lhs.headers == rhs.headers
            && lhs.body == rhs.body && lhs.delivery == rhs.delivery
    }

    /// The reason phrase that will be sent.
    public var reasonPhrase: String { reason ?? HTTPStatus.phrase(for: status) }

    /// Whether this status forbids a body (1xx, 204, 304).
    public var forbidsBody: Bool { HTTPStatus.forbidsBody(status) }
}

/// How the transport sends a response: at once, later, in chunks, slowly, or not at all.
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
}

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
}

/// Media types mockstack sends.
public enum MediaType {
    public static let json = "application/json; charset=utf-8"
    public static let text = "text/plain; charset=utf-8"
    public static let html = "text/html; charset=utf-8"
    public static let octetStream = "application/octet-stream"
}
