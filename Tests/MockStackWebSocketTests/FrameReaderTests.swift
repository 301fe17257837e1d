@testable import MockStackWebSocket
import Testing

/// The reader without sockets: client frames (masked) in, events out, split at every byte.
struct FrameReaderTests {
    static let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    static func client(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketFrame.encode(opcode, payload, fin: fin, mask: mask)
    }

    static func client(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
        client(opcode, Array(text.utf8), fin: fin)
    }

    /// Reads `bytes` whole, then split at every position (and byte by byte): the same events each time.
    static func read(_ bytes: [UInt8], limit: Int = 1 << 20) -> [WebSocketFrameReader.Event] {
        var whole = WebSocketFrameReader(maxMessageBytes: limit)
        let expected = whole.read(bytes)
        let disagreeing = (0...bytes.count).filter { cut in
            var reader = WebSocketFrameReader(maxMessageBytes: limit)
            return reader.read(Array(bytes[..<cut])) + reader.read(Array(bytes[cut...])) != expected
        }
        #expect(disagreeing.isEmpty, "split at \(disagreeing)")
        var reader = WebSocketFrameReader(maxMessageBytes: limit)
        #expect(bytes.flatMap { reader.read([$0]) } == expected, "byte by byte")
        return expected
    }

    static func failure(_ code: WebSocketCloseCode, _ reason: String) -> [WebSocketFrameReader.Event] {
        [.failed(WebSocketFailure(code, reason))]
    }

    @Test func readsTextAndBinaryMessages() {
        #expect(Self.read(Self.client(.text, "Hello, wörld 👋")) == [.message(.text("Hello, wörld 👋"))])
        #expect(Self.read(Self.client(.binary, [0, 1, 2, 255])) == [.message(.binary([0, 1, 2, 255]))])
        #expect(Self.read(Self.client(.text, "")) == [.message(.text(""))])
    }

    @Test func readsEachLengthEncoding() {
        for count in [125, 126, 65_535, 65_536, 70_000] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let frame = Self.client(.binary, payload)
            var reader = WebSocketFrameReader(maxMessageBytes: 1 << 20)
            #expect(reader.read(frame) == [.message(.binary(payload))], "\(count) bytes")
        }
    }

    @Test func joinsFragmentsWithControlFramesBetween() {
        let bytes = Self.client(.text, "Hel", fin: false) + Self.client(.ping, "p") + Self.client(.continuation, "lo ", fin: false)
            + Self.client(.pong, "") + Self.client(.continuation, "you")
        #expect(Self.read(bytes) == [.ping(Array("p".utf8)), .pong([]), .message(.text("Hello you"))])
    }

    /// A character split across two fragments is still one character.
    @Test func validatesUTF8AcrossFragments() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let bytes = Self.client(.text, [0x41, euro[0]], fin: false) + Self.client(.continuation, [euro[1]], fin: false)
            + Self.client(.continuation, [euro[2]])
        #expect(Self.read(bytes) == [.message(.text("A€"))])
    }

    @Test func readsPingPongAndClose() {
        #expect(Self.read(Self.client(.ping, "hi") + Self.client(.pong, [1])) == [.ping(Array("hi".utf8)), .pong([1])])
        #expect(Self.read(Self.client(.close, [])) == [.close(code: nil, reason: "")])
        #expect(Self.read(Self.client(.close, WebSocketFrame.closePayload(WebSocketCloseCode(4001), reason: "bye ✓")))
            == [.close(code: WebSocketCloseCode(4001), reason: "bye ✓")])
        // Nothing after a close is read.
        #expect(Self.read(Self.client(.close, []) + Self.client(.text, "late")) == [.close(code: nil, reason: "")])
    }

    @Test func refusesAnUnmaskedFrame() {
        #expect(Self.read(WebSocketFrame.encode(.text, Array("x".utf8))) == Self.failure(.protocolError, "a client frame must be masked"))
        var lenient = WebSocketFrameReader(maxMessageBytes: 100, requiresMask: false)
        #expect(lenient.read(WebSocketFrame.encode(.text, Array("x".utf8))) == [.message(.text("x"))])
    }

    @Test func refusesReservedBitsAndOpcodes() {
        for rsv: UInt8 in 1...7 {
            #expect(Self.read(WebSocketFrame.encode(opcodeBits: 1, rsv: rsv, Array("x".utf8), mask: Self.mask))
                == Self.failure(.protocolError, "reserved bits set with no extension negotiated"))
        }
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            #expect(Self.read(WebSocketFrame.encode(opcodeBits: opcode, [], mask: Self.mask)) == Self.failure(.protocolError, "reserved opcode \(opcode)"))
        }
    }

    @Test func refusesBadControlFrames() {
        #expect(Self.read(Self.client(.ping, [UInt8](repeating: 1, count: 126))) == Self.failure(.protocolError, "a control frame carries at most 125 bytes"))
        #expect(Self.read(Self.client(.ping, [UInt8](repeating: 1, count: 125))) == [.ping([UInt8](repeating: 1, count: 125))])
        #expect(Self.read(Self.client(.ping, "x", fin: false)) == Self.failure(.protocolError, "a control frame must not be fragmented"))
        #expect(Self.read(Self.client(.close, [0x03])) == Self.failure(.protocolError, "a close frame with a one-byte payload"))
    }

    @Test func refusesMisplacedFragments() {
        #expect(Self.read(Self.client(.continuation, "x")) == Self.failure(.protocolError, "a continuation frame with no message to continue"))
        #expect(Self.read(Self.client(.text, "a", fin: false) + Self.client(.text, "b"))
            == Self.failure(.protocolError, "a new message before the last one ended"))
        #expect(Self.read(Self.client(.text, "a") + Self.client(.continuation, "b"))
            == [.message(.text("a")), .failed(WebSocketFailure(.protocolError, "a continuation frame with no message to continue"))])
    }

    @Test func refusesALengthWithItsTopBitSet() {
        let head: [UInt8] = [0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1]
        #expect(Self.read(head) == Self.failure(.protocolError, "a 64-bit length with its top bit set"))
    }

    /// The limit is decided from the head: the payload is never awaited, nor buffered.
    @Test func refusesAFrameOrMessageOverTheLimitFromItsHead() {
        let over = Self.client(.binary, [UInt8](repeating: 0, count: 101))
        let tooBig = Self.failure(.messageTooBig, "a message over the limit of 100 bytes")
        #expect(Self.read(Array(over.prefix(2)), limit: 100) == tooBig)
        #expect(Self.read(Self.client(.binary, [UInt8](repeating: 0, count: 100)), limit: 100) == [.message(.binary([UInt8](repeating: 0, count: 100)))])
        let fragments = Self.client(.text, String(repeating: "a", count: 60), fin: false) + Self.client(.continuation, String(repeating: "b", count: 41))
        #expect(Self.read(fragments, limit: 100) == tooBig)
        // 2^62 bytes announced: refused at once.
        #expect(Self.read([0x82, 0x80 | 127, 0x40, 0, 0, 0, 0, 0, 0, 0], limit: 100) == tooBig)
    }

    @Test func refusesTextThatIsNotUTF8() {
        let notUTF8 = Self.failure(.invalidPayload, "a text message that is not UTF-8")
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            #expect(Self.read(Self.client(.text, bad)) == notUTF8, "\(bad)")
        }
        // Found at the bad byte, before the rest of the message arrives.
        var reader = WebSocketFrameReader(maxMessageBytes: 1 << 20)
        let frame = Self.client(.text, [0x41, 0xFF] + [UInt8](repeating: 0x41, count: 50), fin: false)
        #expect(reader.read(Array(frame.prefix(8))) == notUTF8)
        // Binary messages are not checked.
        #expect(Self.read(Self.client(.binary, [0xFF])) == [.message(.binary([0xFF]))])
    }

    @Test func refusesBadCloseCodesAndReasons() {
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535] {
            #expect(Self.read(Self.client(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]))
                == Self.failure(.protocolError, "close code \(code) may not be sent"))
        }
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4999] {
            #expect(Self.read(Self.client(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])) == [.close(code: WebSocketCloseCode(code), reason: "")])
        }
        #expect(Self.read(Self.client(.close, [0x03, 0xE8, 0xFF])) == Self.failure(.invalidPayload, "a close reason that is not UTF-8"))
    }
}
