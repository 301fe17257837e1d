import MockStackCore
import Testing

/// Chunked transfer coding as the server writes it, and the heads that declare a body's framing.
struct ChunkedCodingTests {
    @Test func aPieceBecomesOneChunkSizedInHexadecimal() {
        #expect(ChunkedCoding.chunk(Array("abc".utf8)) == Array("3\r\nabc\r\n".utf8))
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        #expect(ChunkedCoding.chunk(large) == Array("12c\r\n".utf8) + large + Array("\r\n".utf8))
        // A slice is framed by its own count, not its base's.
        let slice = Array("0123456789".utf8)[4..<6]
        #expect(ChunkedCoding.chunk(slice) == Array("2\r\n45\r\n".utf8))
    }

    @Test func nothingIsNoChunkSoItCannotEndTheBody() {
        #expect(ChunkedCoding.chunk([UInt8]()).isEmpty)
        #expect(ChunkedCoding.lastChunk == Array("0\r\n\r\n".utf8))
    }

    @Test func aBodyEndedByTheCloseDeclaresNoLength() {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Array("x".utf8))
        let untilClose = String(decoding: RenderedHead(response, framing: .untilClose).bytes, as: UTF8.self)
        #expect(untilClose == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
        let chunked = String(decoding: RenderedHead(response, framing: .chunked).bytes, as: UTF8.self)
        #expect(chunked == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n")
    }
}
