/// The bytes a fault writes before it closes the connection: a reply broken in one precise
/// way, built here as plain values so the transport only has to send them.
public enum FaultBytes {
    /// What `fault` sends for `response` before closing; empty for faults that send nothing
    /// (`reset`, `empty`, `hang`).
    public static func bytes(for fault: Fault, of response: HTTPResponse) -> [UInt8] {
        // An answer with no body can only be broken in its head: cut the head in half.
        let bodiless = response.forbidsBody || response.body.isEmpty
        return switch fault {
        case .reset, .empty, .hang: []
        case .truncate: bodiless ? halfHead(response) : truncated(response)
        case .malformedChunk: bodiless ? halfHead(response) : malformedChunk(response)
        case .randomThenClose: garbage(count: 512, seed: 0x6D6F_636B_7374_6B21)
        }
    }

    /// The head declaring the whole body's length, then half the body.
    static func truncated(_ response: HTTPResponse) -> [UInt8] {
        var bytes = RenderedHead(response, framing: .contentLength(response.body.count)).bytes + RenderedHead.lineEnd
        bytes += response.body.prefix(response.body.count / 2)
        return bytes
    }

    /// The first half of the head, which never reaches its blank line.
    static func halfHead(_ response: HTTPResponse) -> [UInt8] {
        let head = RenderedHead(response).bytes
        return Array(head.prefix(head.count / 2))
    }

    /// The head with chunked coding, half the body as a well-formed chunk, then a chunk whose
    /// size line is not hexadecimal — a parser must fail there, not at the first byte.
    static func malformedChunk(_ response: HTTPResponse) -> [UInt8] {
        var bytes = RenderedHead(response, framing: .chunked).bytes + RenderedHead.lineEnd
        bytes += ChunkedCoding.chunk(response.body.prefix(response.body.count / 2))
        bytes += "zz\r\nnot a chunk\r\n".utf8
        return bytes
    }

    /// `count` bytes that are not an HTTP response (the first is never `H`), the same every time.
    static func garbage(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededRandom(seed: seed)
        var bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        if bytes.first == UInt8(ascii: "H") { bytes[0] = 0 }
        return bytes
    }
}
