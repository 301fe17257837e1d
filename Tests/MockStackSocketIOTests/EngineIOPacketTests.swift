import MockStackJSON
import MockStackSocketIO
import Testing

@Suite struct EngineIOPacketTests {
    @Test func aPacketIsItsTypeDigitThenItsText() throws {
        #expect(EngineIOPacket.message("2[\"x\"]").encoded == "42[\"x\"]")
        #expect(EngineIOPacket(.ping).encoded == "2")
        #expect(EngineIOPacket(.ping, "probe").encoded == "2probe")
        #expect(try EngineIOPacket.decode("3probe") == EngineIOPacket(.pong, "probe"))
        #expect(try EngineIOPacket.decode("6") == EngineIOPacket(.noop))
        #expect(try EngineIOPacket.decode("4é😀") == .message("é😀"))
    }

    @Test func unreadablePacketsAreRefused() throws {
        #expect(throws: EngineIODecodingError.emptyPacket) { try EngineIOPacket.decode("") }
        #expect(throws: EngineIODecodingError.unknownPacketType) { try EngineIOPacket.decode("7") }
        #expect(throws: EngineIODecodingError.unknownPacketType) { try EngineIOPacket.decode("x4") }
        #expect(throws: EngineIODecodingError.binaryPacket) { try EngineIOPacket.decode("bAQID") }
    }

    @Test func revision4PayloadsAreJoinedByTheRecordSeparator() throws {
        let packets = [EngineIOPacket.message("31[null,[]]"), .message("32[{\"name\":\"NotFound\"}]"), EngineIOPacket(.ping)]
        let body = EngineIOPayload.encode(packets, protocol: .v4)
        #expect(body == "431[null,[]]\u{1E}432[{\"name\":\"NotFound\"}]\u{1E}2")
        #expect(try EngineIOPayload.decode(Array(body.utf8), protocol: .v4) == packets)
        #expect(try EngineIOPayload.decode("40", protocol: .v4) == [.message("0")])
    }

    @Test func revision4RefusesEmptyRecordsAndBadText() throws {
        #expect(throws: EngineIODecodingError.emptyPacket) { try EngineIOPayload.decode("", protocol: .v4) }
        #expect(throws: EngineIODecodingError.emptyPacket) { try EngineIOPayload.decode("40\u{1E}", protocol: .v4) }
        #expect(throws: EngineIODecodingError.emptyPacket) { try EngineIOPayload.decode("40\u{1E}\u{1E}2", protocol: .v4) }
        #expect(throws: EngineIODecodingError.unknownPacketType) { try EngineIOPayload.decode("40\u{1E}9", protocol: .v4) }
        #expect(throws: EngineIODecodingError.invalidText) { try EngineIOPayload.decode([0x34, 0xFF], protocol: .v4) }
    }

    @Test func revision3PayloadsCountUTF16CodeUnits() throws {
        #expect(EngineIOPayload.encode([.message("0")], protocol: .v3) == "2:40")
        // "4" + "é" + "😀": one, one and two UTF-16 code units, as JavaScript's `length` counts them.
        let packets = [EngineIOPacket.message("é😀"), EngineIOPacket(.pong)]
        let body = EngineIOPayload.encode(packets, protocol: .v3)
        #expect(body == "4:4é😀1:3")
        #expect(try EngineIOPayload.decode(Array(body.utf8), protocol: .v3) == packets)
        #expect(try EngineIOPayload.decode("0:2:40", protocol: .v3) == [.message("0")])
    }

    @Test func revision3AlsoReadsBinaryFramedBodies() throws {
        // 0 (text), length 12 as the bytes 1 and 2, 255, then the packet; twice.
        let body: [UInt8] = [0, 1, 2, 255] + Array("42[\"find\",1]".utf8) + [0, 1, 255] + Array("2".utf8)
        #expect(try EngineIOPayload.decode(body, protocol: .v3) == [.message("2[\"find\",1]"), EngineIOPacket(.ping)])
        // A length counts bytes, not characters.
        #expect(try EngineIOPayload.decode([0, 3, 255] + Array("4é".utf8), protocol: .v3) == [.message("é")])
        #expect(throws: EngineIODecodingError.binaryPacket) { try EngineIOPayload.decode([1, 1, 255, 4], protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode([0, 9, 255, 0x34], protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode([0, 10, 255, 0x34], protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode([0, 1], protocol: .v3) }
        #expect(throws: EngineIODecodingError.invalidText) { try EngineIOPayload.decode([0, 2, 255, 0x34, 0xFF], protocol: .v3) }
        // Revision 4 has no such framing.
        #expect(throws: EngineIODecodingError.invalidText) { try EngineIOPayload.decode([0, 1, 255, 0x32], protocol: .v4) }
    }

    @Test func revision3RefusesBadLengths() throws {
        #expect(throws: EngineIODecodingError.emptyPacket) { try EngineIOPayload.decode("", protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode("40", protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode(":40", protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode("3:40", protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode("2:40 1", protocol: .v3) }
        #expect(throws: EngineIODecodingError.badLength) { try EngineIOPayload.decode("99999999999:4", protocol: .v3) }
        #expect(throws: EngineIODecodingError.binaryPacket) { try EngineIOPayload.decode("6:b4AQID", protocol: .v3) }
        // A length that ends inside a surrogate pair leaves half a character.
        #expect(throws: EngineIODecodingError.invalidText) { try EngineIOPayload.decode("2:4😀", protocol: .v3) }
    }

    @Test func payloadsPastMaximumPacketsFailAsSoonAsTheExtraOneIsFound() throws {
        #expect(throws: EngineIODecodingError.tooManyPackets) { try EngineIOPayload.decode("6\u{1E}6\u{1E}6", protocol: .v4, maximumPackets: 2) }
        #expect(try EngineIOPayload.decode("6\u{1E}6", protocol: .v4, maximumPackets: 2).count == 2)
        #expect(throws: EngineIODecodingError.tooManyPackets) { try EngineIOPayload.decode("1:61:61:6", protocol: .v3, maximumPackets: 2) }
        // Zero-length records are skipped, and not counted.
        #expect(try EngineIOPayload.decode("1:60:0:1:6", protocol: .v3, maximumPackets: 2).count == 2)
        let binaryFramed: [UInt8] = [0, 1, 255, 0x36, 0, 1, 255, 0x36, 0, 1, 255, 0x36]
        #expect(throws: EngineIODecodingError.tooManyPackets) { try EngineIOPayload.decode(binaryFramed, protocol: .v3, maximumPackets: 2) }
        #expect(try EngineIOPayload.decode(binaryFramed, protocol: .v3, maximumPackets: 3).count == 3)
    }
}
