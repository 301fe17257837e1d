/// Why a request was refused: the status to answer with and a message for its JSON body.
public struct HTTP1ParseError: Error, Sendable, Equatable {
    /// 400, 413, 417, 431 or 505.
    public var status: Int
    /// What was wrong, worded for the client ("Malformed request: …").
    public var message: String

    /// An error with this status and message.
    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// A 400 for a request line, a header or framing the parser cannot read.
    static func malformed(_ problem: String) -> Self {
        Self(status: 400, message: "Malformed request: " + problem)
    }

    /// A 400 for a chunked body that does not follow RFC 9112 §7.1.
    static func malformedChunkedBody(_ problem: String) -> Self {
        Self(status: 400, message: "Malformed chunked body: " + problem)
    }

    /// A CR not followed by LF, in the head, a chunk size line or a trailer.
    static let bareCarriageReturn = malformed("a CR that is not followed by LF")

    /// A 431 for a head (or trailers) over ``HTTP1Limits/maxHeadBytes``, worded as the transport words it.
    static func headTooLarge(limit: Int) -> Self {
        Self(status: 431, message: "Request line and headers are larger than the limit of \(limit) bytes")
    }

    /// A 431 for more fields than ``HTTP1Limits/maxHeaderCount``.
    static func tooManyFields(limit: Int) -> Self {
        Self(status: 431, message: "Request has more header fields than the limit of \(limit)")
    }

    /// A 413 for a body over ``HTTP1Limits/maxBodyBytes``, worded as the transport words it.
    static func bodyTooLarge(limit: Int) -> Self {
        Self(status: 413, message: "Request body is larger than the limit of \(limit) bytes")
    }

    /// A 417 for an `Expect` other than `100-continue`, worded as the transport words it.
    static let unsupportedExpectation = Self(
        status: 417, message: "Unsupported Expect header: only '100-continue' is understood")

    /// A 505 for a well-formed `HTTP/x.y` other than 1.0 and 1.1.
    static func unsupportedVersion(_ version: Span<UInt8>) -> Self {
        Self(
            status: 505, message: "HTTP version '\(excerpt(version))' is not supported: only HTTP/1.1 and HTTP/1.0 are")
    }

    /// Bytes of the request quoted in a message: at most 64, decoded as UTF-8 (U+FFFD for
    /// what is not), `…` where cut, so that a message never repeats a 32 KiB line.
    static func excerpt(_ bytes: Span<UInt8>) -> String {
        let shown = UTF8Bytes.string(decoding: bytes.extracting(first: 64))
        return bytes.count > 64 ? shown + "…" : shown
    }

    /// The same for text already decoded.
    static func excerpt(_ text: String) -> String {
        text.utf8.count > 64 ? String(decoding: text.utf8.prefix(64), as: UTF8.self) + "…" : text
    }
}
