import MockStackJSON
import MockStackSocketIO
import Testing

@Suite struct EngineIOHandshakeTests {
    let handshake = EngineIOHandshake(sid: "lv_VI97HAXpY6yYWAAAC", upgrades: [.websocket], pingInterval: 25000, pingTimeout: 20000, maxPayload: 1_000_000)

    @Test func theOpenPacketKeepsEngineIOsKeyOrder() throws {
        #expect(handshake.packet(for: .v4).encoded
            == #"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#)
        #expect(handshake.packet(for: .v3).encoded
            == #"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000}"#)
        var direct = handshake
        direct.upgrades = []
        #expect(direct.json(for: .v4)["upgrades"] == .array([]))
    }

    @Test func refusalsCarryEngineIOsCodesAndMessages() throws {
        #expect(EngineIORequestError.unknownTransport.body.jsonText == #"{"code":0,"message":"Transport unknown"}"#)
        #expect(EngineIORequestError.unknownSession.body.jsonText == #"{"code":1,"message":"Session ID unknown"}"#)
        #expect(EngineIORequestError.badHandshakeMethod.body.jsonText == #"{"code":2,"message":"Bad handshake method"}"#)
        #expect(EngineIORequestError.badRequest.body.jsonText == #"{"code":3,"message":"Bad request"}"#)
        #expect(EngineIORequestError.unsupportedProtocolVersion.body.jsonText == #"{"code":5,"message":"Unsupported protocol version"}"#)
        #expect(EngineIORequestError.forbidden.status == 403)
        #expect(EngineIORequestError.unsupportedProtocolVersion.status == 400)
    }
}

@Suite struct EngineIORequestTests {
    typealias Facts = EngineIORequest.Facts
    /// One open session, "abc", on polling.
    func classify(_ facts: Facts, server: EngineIOProtocol = .v4, allowsV3: Bool = false) -> Result<EngineIORequest, EngineIORequestError> {
        EngineIORequest.classify(facts, server: server, allowsV3: allowsV3) { $0 == "abc" ? .polling : nil }
    }

    @Test func handshakes() throws {
        #expect(classify(Facts(method: "GET", transport: "polling", sid: nil, revision: "4", isUpgrade: false)) == .success(.handshake(.v4, .polling)))
        #expect(classify(Facts(method: "GET", transport: "websocket", sid: nil, revision: "4", isUpgrade: true)) == .success(.handshake(.v4, .websocket)))
    }

    @Test func revisionsOtherThan4AreRefusedUnlessRevision3IsAllowed() throws {
        for revision in [nil, "3", "5", "abc"] {
            let facts = Facts(method: "GET", transport: "polling", sid: nil, revision: revision, isUpgrade: false)
            #expect(classify(facts) == .failure(.unsupportedProtocolVersion))
            #expect(classify(facts, allowsV3: true) == .success(.handshake(.v3, .polling)))
            // An engine.io 3 server never reads EIO.
            #expect(classify(facts, server: .v3) == .success(.handshake(.v3, .polling)))
        }
        #expect(classify(Facts(method: "GET", transport: "polling", sid: nil, revision: "4", isUpgrade: false), server: .v3)
            == .success(.handshake(.v3, .polling)))
    }

    @Test func refusalsComeInEngineIOsOrder() throws {
        // The transport first, even before an unknown sid or a bad method.
        #expect(classify(Facts(method: "POST", transport: nil, sid: "nope", revision: "3", isUpgrade: false)) == .failure(.unknownTransport))
        #expect(classify(Facts(method: "GET", transport: "flash", sid: nil, revision: "4", isUpgrade: false)) == .failure(.unknownTransport))
        #expect(classify(Facts(method: "GET", transport: "polling", sid: "nope", revision: "4", isUpgrade: false)) == .failure(.unknownSession))
        #expect(classify(Facts(method: "POST", transport: "polling", sid: nil, revision: "3", isUpgrade: false)) == .failure(.badHandshakeMethod))
        #expect(classify(Facts(method: "GET", transport: "websocket", sid: nil, revision: "3", isUpgrade: false)) == .failure(.badRequest))
    }

    @Test func aSessionIsReachedOnItsTransportOrUpgraded() throws {
        #expect(classify(Facts(method: "POST", transport: "polling", sid: "abc", revision: nil, isUpgrade: false)) == .success(.session(sid: "abc", transport: .polling)))
        #expect(classify(Facts(method: "GET", transport: "websocket", sid: "abc", revision: "4", isUpgrade: true)) == .success(.session(sid: "abc", transport: .websocket)))
        #expect(classify(Facts(method: "GET", transport: "websocket", sid: "abc", revision: "4", isUpgrade: false)) == .failure(.badRequest))
    }
}
