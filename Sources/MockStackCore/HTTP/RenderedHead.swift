/// A response's status line and header lines as HTTP/1.1 bytes: everything of the head except
/// `Date` and `Connection`, which depend on the moment and the connection and so are the
/// transport's to add, and the blank line that ends it.
///
/// Rendering adds what the response leaves out: `Content-Length` (also for HEAD, where it says
/// what a GET would send) and the JSON `Content-Type` for a non-empty body, unless the status
/// forbids a body. The framing is the transport's alone: a response's own `Content-Length` or
/// `Transfer-Encoding` is never written (stubs and fixtures are refused one when read; this is
/// the defence behind that), so the head always says exactly how long the body sent is. Fields whose name or value could split the head (CR, LF, a name with spaces
/// or a colon) are dropped, and line breaks in the reason phrase become spaces: both can come
/// from fixtures or requests.
///
/// Static answers render once (``HTTPResponse/preparingHead()``); others on each reply.
public struct RenderedHead: Sendable, Equatable {
    public let bytes: [UInt8]
    /// Whether the response brought its own `Date`.
    public let hasDate: Bool
    /// The response's own `Connection` value, if it has one.
    public let connection: String?

    /// How the body is framed when the head says so itself rather than by the response's own
    /// headers; fault injection declares lengths it will not keep.
    public enum Framing: Sendable {
        case contentLength(Int)
        case chunked
    }

    /// - Parameter framing: `nil` writes the body's `Content-Length`; a value declares this
    ///   framing instead (fault injection). Either way any `Content-Length` or
    ///   `Transfer-Encoding` of the response's own is left out.
    public init(_ response: HTTPResponse, framing: Framing? = nil) {
        let fields = response.headers.fields
        // One allocation: every field's bytes plus room for the status line and what is added.
        var capacity = 160
        for field in fields { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
        if response.reason != nil { capacity += response.reasonPhrase.utf8.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        if response.reason == nil, (100...599).contains(response.status), let line = Self.standardStatusLines[response.status - 100] {
            bytes.append(contentsOf: line)
        } else {
            bytes.append(contentsOf: "HTTP/1.1 \(response.status) ".utf8)
            bytes.append(contentsOf: response.reasonPhrase.utf8.map { $0 == 0x0D || $0 == 0x0A ? UInt8(ascii: " ") : $0 })
            bytes.append(contentsOf: Self.lineEnd)
        }
        var hasDate = false, hasLength = false, hasType = false
        var connection: String?
        for field in fields {
            // Over each string's UTF-8 in place: checked, classified and copied in bulk rather
            // than through the UTF-8 view's iterator.
            UTF8Bytes.withSpan(field.name) { name in
                UTF8Bytes.withSpan(field.value) { value in
                    guard Self.isSafe(name: name, value: value) else { return }
                    switch name.count {
                    case 4: if HTTP1Syntax.equalsIgnoringCase(name, "date") { hasDate = true }
                    case 10: if connection == nil, HTTP1Syntax.equalsIgnoringCase(name, "connection") { connection = field.value }
                    case 12: if HTTP1Syntax.equalsIgnoringCase(name, "content-type") { hasType = true }
                    case 14: if HTTP1Syntax.equalsIgnoringCase(name, "content-length") { return }
                    case 17: if HTTP1Syntax.equalsIgnoringCase(name, "transfer-encoding") { return }
                    default: break
                    }
                    UTF8Bytes.append(name, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    bytes.append(UInt8(ascii: " "))
                    UTF8Bytes.append(value, to: &bytes)
                    bytes.append(0x0D)
                    bytes.append(0x0A)
                }
            }
        }
        switch framing {
        case .contentLength(let length)?:
            Self.appendContentLength(length, to: &bytes)
            hasLength = true
        case .chunked?:
            bytes.append(contentsOf: Self.chunkedLine)
            hasLength = true
        case nil:
            break
        }
        if !response.forbidsBody {
            let body = response.body
            if !hasLength { Self.appendContentLength(body.count, to: &bytes) }
            // An empty body gets no type: clients read "no Content-Type" as "nothing to parse".
            if !hasType, !body.isEmpty { bytes.append(contentsOf: Self.jsonContentTypeLine) }
        }
        self.bytes = bytes
        self.hasDate = hasDate
        self.connection = connection
    }

    public static let lineEnd: [UInt8] = [0x0D, 0x0A]

    /// `Content-Length: <length>\r\n`, the digits written in place rather than through a String.
    private static func appendContentLength(_ length: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: contentLengthPrefix)
        if length < 0 {
            bytes.append(contentsOf: String(length).utf8)
        } else {
            var divisor = 1
            while length / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(length / divisor % 10))
                divisor /= 10
            }
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    private static let contentLengthPrefix = Array("Content-Length: ".utf8)
    private static let chunkedLine = Array("Transfer-Encoding: chunked\r\n".utf8)
    private static let jsonContentTypeLine = Array("Content-Type: \(MediaType.json)\r\n".utf8)
    /// `HTTP/1.1 200 OK\r\n` and the like, rendered once: dynamic answers render a head per reply.
    /// Indexed by status - 100.
    private static let standardStatusLines: [[UInt8]?] = (100...599).map { status in
        let phrase = HTTPStatus.phrase(for: status)
        return phrase == HTTPStatus.unknownPhrase ? nil : Array("HTTP/1.1 \(status) \(phrase)\r\n".utf8)
    }

    /// Whether a field can be written without splitting the head: a name that is a single token
    /// of visible characters without a colon, and a value without a line break.
    private static func isSafe(name: Span<UInt8>, value: Span<UInt8>) -> Bool {
        // Without early exits, so that the loops vectorise: a refused field is rare.
        var refused: UInt8 = name.isEmpty ? 1 : 0
        for index in name.indices {
            let byte = name[index]
            refused |= (byte <= 0x20 ? 1 : 0) | (byte == UInt8(ascii: ":") ? 1 : 0) | (byte == 0x7F ? 1 : 0)
        }
        for index in value.indices {
            let byte = value[index]
            refused |= (byte == 0x0D ? 1 : 0) | (byte == 0x0A ? 1 : 0)
        }
        return refused == 0
    }
}
