import MockStackJSON
import MockStackSocketIO
import Testing

@Suite struct SocketIOPacketTests {
    @Test func encodingFollowsTypeNamespaceAckIDThenJSON() throws {
        #expect(SocketIOPacket(.connect, data: ["sid": "s1"]).encoded == #"0{"sid":"s1"}"#)
        #expect(SocketIOPacket(.connectError, namespace: "/feathers", data: ["message": "Invalid namespace"]).encoded
            == #"4/feathers,{"message":"Invalid namespace"}"#)
        #expect(SocketIOPacket.ack(3, [.null, .array([])]).encoded == "33[null,[]]")
        #expect(SocketIOPacket.event("messages created", [["text": "hi", "id": 3]]).encoded == #"2["messages created",{"text":"hi","id":3}]"#)
        #expect(SocketIOPacket(.disconnect).encoded == "1")
    }

    @Test func aServiceCallIsReadWithItsAckID() throws {
        let packet = try SocketIOPacket.decode(#"21["find","messages",{"$limit":2}]"#, protocol: .v5)
        #expect(packet == SocketIOPacket.event("find", ["messages", ["$limit": 2]], ackID: 1))
        #expect(try SocketIOPacket.decode(#"2123["get","people",0]"#, protocol: .v5).ackID == 123)
        #expect(try SocketIOPacket.decode("0", protocol: .v5) == SocketIOPacket(.connect))
        #expect(try SocketIOPacket.decode(#"0{"token":"t"}"#, protocol: .v5) == SocketIOPacket(.connect, data: ["token": "t"]))
        #expect(try SocketIOPacket.decode("0/feathers,", protocol: .v5) == SocketIOPacket(.connect, namespace: "/feathers"))
        #expect(try SocketIOPacket.decode("1", protocol: .v5) == SocketIOPacket(.disconnect))
        #expect(try SocketIOPacket.decode("3", protocol: .v5) == SocketIOPacket(.ack))
    }

    @Test func revision5RefusesPayloadsItsTypeDoesNotAllow() throws {
        for text in ["4abc", "2{}", "2abc[\"find\"]", #"2["connect"]"#, #"2["disconnect",1]"#, "2[]", "2[null]", "0[]", "0\"x\"",
                     "3{}", #"1{"a":1}"#, "2[1,"] {
            #expect(throws: SocketIODecodingError.invalidPayload, "\(text)") { try SocketIOPacket.decode(text, protocol: .v5) }
        }
        #expect(try SocketIOPacket.decode("2[7]", protocol: .v5).data == [7])
        #expect(try SocketIOPacket.decode(#"4"refused""#, protocol: .v5).data == "refused")
    }

    @Test func revision4OnlyNeedsJSON() throws {
        #expect(try SocketIOPacket.decode("2{}", protocol: .v4).data == .object([:]))
        #expect(try SocketIOPacket.decode("0/admin?token=x,", protocol: .v4).namespace == "/admin?token=x")
        #expect(throws: SocketIODecodingError.invalidPayload) { try SocketIOPacket.decode("2[1,", protocol: .v4) }
    }

    @Test func unknownTypesBinaryPacketsAndHugeAckIDsAreRefused() throws {
        #expect(throws: SocketIODecodingError.unknownType) { try SocketIOPacket.decode("", protocol: .v5) }
        #expect(throws: SocketIODecodingError.unknownType) { try SocketIOPacket.decode("7", protocol: .v5) }
        #expect(throws: SocketIODecodingError.unknownType) { try SocketIOPacket.decode("x", protocol: .v5) }
        #expect(throws: SocketIODecodingError.binaryPacket) { try SocketIOPacket.decode(#"51-["upload",{"_placeholder":true,"num":0}]"#, protocol: .v5) }
        #expect(throws: SocketIODecodingError.binaryPacket) { try SocketIOPacket.decode("6", protocol: .v4) }
        #expect(throws: SocketIODecodingError.invalidAckID) { try SocketIOPacket.decode("21234567890123456[\"find\"]", protocol: .v5) }
    }
}
