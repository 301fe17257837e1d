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

/// How the transport sends a response: at once, later, in chunks, or not at all.
public enum Delivery: Sendable, Equatable {
    /// Send the whole response now.
    case immediate
    /// Send the response after this many milliseconds; the loop stays free meanwhile.
    case delayed(milliseconds: Int)
    /// Send the head now, then the body as chunked transfer coding, one chunk every
    /// `intervalMilliseconds` (the body is split into `chunkSize`-byte chunks).
    case chunked(chunkSize: Int, intervalMilliseconds: Int)
    /// Misbehave on purpose instead of answering.
    case fault(Fault)
}

/// Connection-level misbehaviour the transport can produce for fault-injection tests.
public enum Fault: String, Sendable, Equatable, CaseIterable {
    /// Abort the connection with a TCP RST (clients see "connection reset by peer").
    case reset
    /// Close the connection without sending a byte (clients see an empty reply).
    case close
}

/// Media types mockstack sends.
public enum MediaType {
    public static let json = "application/json; charset=utf-8"
    public static let text = "text/plain; charset=utf-8"
    public static let html = "text/html; charset=utf-8"
    public static let octetStream = "application/octet-stream"
}
