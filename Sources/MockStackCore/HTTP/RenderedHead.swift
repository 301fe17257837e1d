/// A response's status line and header lines as HTTP/1.1 bytes: everything of the head except
/// `Date` and `Connection`, which depend on the moment and the connection and so are the
/// transport's to add, and the blank line that ends it.
///
/// Rendering adds what the response leaves out: `Content-Length` (also for HEAD, where it says
/// what a GET would send) and the JSON `Content-Type` for a non-empty body, unless the status
/// forbids a body or the response asks for its fields as they are
/// (``HTTPResponse/defaultsContentType``). The framing is the transport's alone: a response's own `Content-Length` or
/// `Transfer-Encoding` is never written (stubs and fixtures are refused one when read; this is
/// the defence behind that), so the head always says exactly how long the body sent is. Fields
/// whose name or value could split the head or carry raw control bytes (CR, LF, NUL, an escape:
/// any control byte but HTAB; a name with spaces or a colon) are dropped, and line breaks in the
/// reason phrase become spaces: both can come from fixtures or requests.
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
        /// No length at all: the body ends when the connection closes (a streamed body on
        /// HTTP/1.0, which has no chunked coding).
        case untilClose
    }

    /// - Parameter framing: `nil` writes the body's `Content-Length`; a value declares this
    ///   framing instead (fault injection, streamed bodies). Either way any `Content-Length` or
    ///   `Transfer-Encoding` of the response's own is left out.
    public init(_ response: HTTPResponse, framing: Framing? = nil) {
        let fields = response.headers.fields
        // One allocation: every field's bytes plus room for the status line and what is added.
        var capacity = 160
        for index in fields.indices {
            capacity +=
                fields[index].line?.bytes.count ?? fields[index].name.utf8.count + fields[index].value.utf8.count + 4
        }
        if response.reason != nil { capacity += response.reasonPhrase.utf8.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        if response.reason == nil, (100...599).contains(response.status),
            let line = Self.standardStatusLines[response.status - 100]
        {
            bytes.append(contentsOf: line)
        } else {
            bytes.append(contentsOf: "HTTP/1.1 \(response.status) ".utf8)
            bytes.append(
                contentsOf: response.reasonPhrase.utf8.map { $0 == 0x0D || $0 == 0x0A ? UInt8(ascii: " ") : $0 })
            bytes.append(contentsOf: Self.lineEnd)
        }
        var hasDate = false
        var hasLength = false
        var hasType = false
        var connection: String?
        for index in fields.indices {
            // A prepared field's line was checked and classified when it was made.
            if let line = fields[index].line {
                bytes.append(contentsOf: line.bytes)
                hasType = hasType || line.isContentType
                continue
            }
            let field = fields[index]
            // Over each string's UTF-8 in place: checked, classified and copied in bulk rather
            // than through the UTF-8 view's iterator.
            UTF8Bytes.withSpan(field.name) { name in
                UTF8Bytes.withSpan(field.value) { value in
                    guard Self.isSafe(name: name, value: value) else { return }
                    switch FieldRole(name) {
                    case .date: hasDate = true
                    case .connection: if connection == nil { connection = field.value }
                    case .contentType: hasType = true
                    case .framing: return
                    case .other: break
                    }
                    Self.appendLine(name: name, value: value, to: &bytes)
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
        case .untilClose?:
            hasLength = true
        case nil:
            break
        }
        if !response.forbidsBody {
            let body = response.body
            if !hasLength { Self.appendContentLength(body.count, to: &bytes) }
            // An empty body gets no type: clients read "no Content-Type" as "nothing to parse".
            if !hasType, !body.isEmpty, response.defaultsContentType {
                bytes.append(contentsOf: Self.jsonContentTypeLine)
            }
        }
        self.bytes = bytes
        self.hasDate = hasDate
        self.connection = connection
    }

    public static let lineEnd: [UInt8] = [0x0D, 0x0A]

    /// A field's line as a head sends it (`Name: value\r\n`), rendered ahead of time: see
    /// ``HTTPHeaders/Field/prepared()``.
    public struct FieldLine: Sendable {
        public let bytes: [UInt8]
        /// Whether the field is the `Content-Type`, which the head then does not add.
        public let isContentType: Bool

        /// The line for a field that can be sent as it is on every answer; nil for one the head
        /// leaves out or reads itself (framing, `Date`, `Connection`) and for one that could
        /// split the head.
        init?(_ field: HTTPHeaders.Field) {
            let made: FieldLine? = UTF8Bytes.withSpan(field.name) { name in
                UTF8Bytes.withSpan(field.value) { value in
                    let role = FieldRole(name)
                    guard RenderedHead.isSafe(name: name, value: value), role == .contentType || role == .other else {
                        return nil
                    }
                    var bytes: [UInt8] = []
                    bytes.reserveCapacity(name.count + value.count + 4)
                    RenderedHead.appendLine(name: name, value: value, to: &bytes)
                    return FieldLine(bytes: bytes, isContentType: role == .contentType)
                }
            }
            guard let made else { return nil }
            self = made
        }

        private init(bytes: [UInt8], isContentType: Bool) {
            self.bytes = bytes
            self.isContentType = isContentType
        }
    }

    /// What a field's name means to the head.
    private enum FieldRole {
        case date, connection, contentType
        /// `Content-Length` or `Transfer-Encoding`: the transport's alone, never copied.
        case framing
        case other

        init(_ name: Span<UInt8>) {
            switch name.count {
            case 4 where HTTP1Syntax.equalsIgnoringCase(name, "date"): self = .date
            case 10 where HTTP1Syntax.equalsIgnoringCase(name, "connection"): self = .connection
            case 12 where HTTP1Syntax.equalsIgnoringCase(name, "content-type"): self = .contentType
            case 14 where HTTP1Syntax.equalsIgnoringCase(name, "content-length"): self = .framing
            case 17 where HTTP1Syntax.equalsIgnoringCase(name, "transfer-encoding"): self = .framing
            default: self = .other
            }
        }
    }

    /// `name: value\r\n`.
    private static func appendLine(name: Span<UInt8>, value: Span<UInt8>, to bytes: inout [UInt8]) {
        UTF8Bytes.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        UTF8Bytes.append(value, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// `Content-Length: <length>\r\n`, the digits written in place rather than through a String.
    private static func appendContentLength(_ length: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: contentLengthPrefix)
        if length < 0 {
            bytes.append(contentsOf: String(length).utf8)
        } else {
            // Room for the digits, then each written from the last: division by the constant
            // 10 is a multiplication, where one by a running power of ten is a division.
            var digits = 1
            var rest = length / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let end = bytes.count + digits
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
            var value = length
            var position = end
            repeat {
                position -= 1
                bytes[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value > 0
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

    /// Whether a field can be written without splitting the head or handing the client raw
    /// control bytes: a name that is a single token of visible characters without a colon, and a
    /// value without a control byte but HTAB (a CR or LF would split the head; a NUL or an escape
    /// filled in from a request by a template would reach the client as it is).
    private static func isSafe(name: Span<UInt8>, value: Span<UInt8>) -> Bool {
        // Without early exits, so that the loops vectorise: a refused field is rare.
        var refused: UInt8 = name.isEmpty ? 1 : 0
        for index in name.indices {
            let byte = name[index]
            refused |= (byte <= 0x20 ? 1 : 0) | (byte == UInt8(ascii: ":") ? 1 : 0) | (byte == 0x7F ? 1 : 0)
        }
        for index in value.indices {
            let byte = value[index]
            refused |= (byte < 0x20 && byte != 0x09 ? 1 : 0) | (byte == 0x7F ? 1 : 0)
        }
        return refused == 0
    }
}
