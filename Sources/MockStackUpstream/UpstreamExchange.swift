public import MockStackCore

/// One request for ``LibcurlClient``: what goes upstream, and the limits on what comes back.
public struct UpstreamRequest: Sendable {
    /// The method as it goes on the request line (`GET`, `PATCH`, `PROPFIND`).
    public var method: String
    /// The whole URL, `http` or `https`.
    public var url: String
    /// The fields sent, as they are. The client adds `Accept-Encoding: identity` when there is
    /// none, writes `Host` and `Content-Length` itself, and sends no `Expect`, `Accept` or
    /// `Content-Type` of its own.
    public var headerFields: HTTPHeaders
    public var body: [UInt8]
    /// Seconds for the whole exchange, connecting included.
    public var timeoutSeconds: Int
    /// The longest answer body taken (16 MiB unless asked otherwise); a longer one is an
    /// ``UpstreamTransferError/Kind/tooLarge``.
    public var maximumBodyBytes: Int

    public init(
        method: String, url: String, headerFields: HTTPHeaders = [:], body: [UInt8] = [], timeoutSeconds: Int = 30,
        maximumBodyBytes: Int = 16 << 20
    ) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maximumBodyBytes = max(0, maximumBodyBytes)
    }
}

/// The upstream's answer: its status, its header fields as they came (in order, framing fields
/// such as `Content-Length` included) and its body as it came (not decoded). A redirect is an
/// answer like any other: it is never followed.
public struct UpstreamReply: Sendable, Equatable {
    public var status: Int
    public var headerFields: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headerFields: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}

/// Why an upstream request got no answer.
public struct UpstreamTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens at the address, or it is unreachable.
        case refused
        case hostNotFound
        case timedOut
        /// The connection ended before a whole answer.
        case closed
        /// What came back was not HTTP.
        case notHTTP
        /// The TLS handshake failed: an untrusted or expired certificate, a name that does not match.
        case tls
        /// The body is longer than ``UpstreamRequest/maximumBodyBytes``, or would have crossed
        /// ``LibcurlClient/answerBytesHeldAtOnce`` with the others arriving.
        case tooLarge
        case failed
    }

    public let kind: Kind
    /// What the upstream did, in words that follow "the upstream {url}": `refused the
    /// connection`, `did not answer within 30 s`.
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}

/// libcurl cannot be used: not installed, or too old. ``message`` says what to install.
public struct LibcurlUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// `libcurl (libcurl.so.4) could not be loaded: install libcurl4`.
    public let message: String
    /// The dynamic loader's own words (`libcurl.so.4: cannot open shared object file: …`).
    public let detail: String

    public init(message: String, detail: String) {
        self.message = message
        self.detail = detail
    }

    public var description: String { message }
}
