/// A response's status line and header lines as HTTP/1.1 bytes: everything of the head except
/// `Date` and `Connection`, which depend on the moment and the connection and so are the
/// transport's to add, and the blank line that ends it.
///
/// Rendering adds what the response leaves out: `Content-Length` (also for HEAD, where it says
/// what a GET would send) and the JSON `Content-Type` for a non-empty body, unless the status
/// forbids a body. Fields whose name or value could split the head (CR, LF, a name with spaces
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

    public init(_ response: HTTPResponse) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + response.headers.count * 48)
        bytes += "HTTP/1.1 \(response.status) ".utf8
        bytes += response.reasonPhrase.utf8.map { $0 == 0x0D || $0 == 0x0A ? UInt8(ascii: " ") : $0 }
        bytes += Self.lineEnd
        var hasDate = false, hasLength = false, hasType = false
        var connection: String?
        for field in response.headers where Self.isSafe(field) {
            bytes += field.name.utf8
            bytes += ": ".utf8
            bytes += field.value.utf8
            bytes += Self.lineEnd
            if field.name.equalsIgnoringASCIICase("Date") { hasDate = true }
            if field.name.equalsIgnoringASCIICase("Content-Length") { hasLength = true }
            if field.name.equalsIgnoringASCIICase("Content-Type") { hasType = true }
            if field.name.equalsIgnoringASCIICase("Connection") { connection = connection ?? field.value }
        }
        if !response.forbidsBody {
            if !hasLength { bytes += "Content-Length: \(response.body.count)\r\n".utf8 }
            // An empty body gets no type: clients read "no Content-Type" as "nothing to parse".
            if !hasType, !response.body.isEmpty { bytes += "Content-Type: \(MediaType.json)\r\n".utf8 }
        }
        self.bytes = bytes
        self.hasDate = hasDate
        self.connection = connection
    }

    public static let lineEnd: [UInt8] = [0x0D, 0x0A]

    private static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
        !field.name.isEmpty
            && !field.name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 == 0x7F }
            && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A }
    }
}
