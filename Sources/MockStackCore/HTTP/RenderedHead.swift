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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + response.headers.count * 48)
        if response.reason == nil, (100...599).contains(response.status), let line = Self.standardStatusLines[response.status - 100] {
            bytes += line
        } else {
            bytes += "HTTP/1.1 \(response.status) ".utf8
            bytes += response.reasonPhrase.utf8.map { $0 == 0x0D || $0 == 0x0A ? UInt8(ascii: " ") : $0 }
            bytes += Self.lineEnd
        }
        var hasDate = false, hasLength = false, hasType = false
        var connection: String?
        for field in response.headers where Self.isSafe(field) {
            let length = field.name.utf8.count
            if length == 14 ? field.name.equalsIgnoringASCIICase("Content-Length") : length == 17 && field.name.equalsIgnoringASCIICase("Transfer-Encoding") {
                continue
            }
            Self.append(field.name, to: &bytes)
            bytes += Self.separator
            Self.append(field.value, to: &bytes)
            bytes += Self.lineEnd
            switch length {
            case 4: if field.name.equalsIgnoringASCIICase("Date") { hasDate = true }
            case 12: if field.name.equalsIgnoringASCIICase("Content-Type") { hasType = true }
            case 10: if field.name.equalsIgnoringASCIICase("Connection") { connection = connection ?? field.value }
            default: break
            }
        }
        switch framing {
        case .contentLength(let length)?:
            bytes += Self.contentLengthPrefix
            Self.append(String(length), to: &bytes)
            bytes += Self.lineEnd
            hasLength = true
        case .chunked?:
            bytes += Self.chunkedLine
            hasLength = true
        case nil:
            break
        }
        if !response.forbidsBody {
            if !hasLength {
                bytes += Self.contentLengthPrefix
                Self.append(String(response.body.count), to: &bytes)
                bytes += Self.lineEnd
            }
            // An empty body gets no type: clients read "no Content-Type" as "nothing to parse".
            if !hasType, !response.body.isEmpty { bytes += Self.jsonContentTypeLine }
        }
        self.bytes = bytes
        self.hasDate = hasDate
        self.connection = connection
    }

    public static let lineEnd: [UInt8] = [0x0D, 0x0A]
    private static let separator = Array(": ".utf8)

    /// Appends a string's UTF-8 (the view copies in bulk).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
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

    private static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
        !field.name.isEmpty
            && !field.name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 == 0x7F }
            && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A }
    }
}
