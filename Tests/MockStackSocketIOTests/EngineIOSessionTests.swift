import MockStackSocketIO
import Testing

@Suite struct EngineIOSessionTests {
    typealias Action = EngineIOSession.Action
    static let settings = EngineIOSettings()
    static let openPacket = #"0{"sid":"s","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#

    func polling(_ revision: EngineIOProtocol = .v4) -> EngineIOSession {
        EngineIOSession.open(sid: "s", revision: revision, transport: .polling, settings: Self.settings).0
    }

    @Test func aPollingHandshakeAnswersTheOpenPacketAndStartsTheHeartbeat() throws {
        let (_, actions) = EngineIOSession.open(sid: "s", revision: .v4, transport: .polling, settings: Self.settings)
        #expect(actions == [.answerPoll(Self.openPacket), .startTimer(.ping, milliseconds: 25000)])
        let (_, v3) = EngineIOSession.open(sid: "s", revision: .v3, transport: .polling, settings: Self.settings)
        #expect(v3 == [.answerPoll(#"78:0{"sid":"s","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000}"#),
                       .startTimer(.pingTimeout, milliseconds: 45000)])
        let (_, direct) = EngineIOSession.open(sid: "s", revision: .v4, transport: .websocket, settings: Self.settings)
        #expect(direct.first == .sendMessage(#"0{"sid":"s","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#))
    }

    @Test func aPollWaitsForPacketsAndTakesAllOfThemAtOnce() throws {
        var session = polling()
        #expect(session.poll() == [])
        #expect(session.send([.message("0{\"sid\":\"x\"}")]) == [.answerPoll("40{\"sid\":\"x\"}")])
        #expect(session.send([.message("2[\"a created\",1]"), .message("2[\"a created\",2]")]) == [])
        #expect(session.poll() == [.answerPoll("42[\"a created\",1]\u{1E}42[\"a created\",2]")])
    }

    @Test func overlappingPollsCloseTheSession() throws {
        var session = polling()
        _ = session.poll()
        #expect(session.poll() == [.rejectRequest(status: 400), .answerPoll("1"), .close(.transportError)])
        #expect(!session.isOpen)
        #expect(session.poll() == [.rejectRequest(status: 400)])
    }

    @Test func postsDeliverMessagesAndAreAcknowledged() throws {
        var session = polling()
        #expect(session.post(Array("40\u{1E}42[\"find\",\"people\"]".utf8)) == [.deliver("0"), .deliver("2[\"find\",\"people\"]"), .acknowledgePost])
        #expect(session.post(Array("4x\u{1E}".utf8)) == [.close(.parseError), .acknowledgePost])
    }

    @Test func aBodyOverMaxPayloadIsRefusedWith413() throws {
        var settings = Self.settings
        settings.maxPayload = 8
        var session = EngineIOSession.open(sid: "s", revision: .v4, transport: .polling, settings: settings).0
        #expect(session.post(Array("4123456789".utf8)) == [.rejectRequest(status: 413)])
        #expect(session.isOpen)
    }

    @Test func revision4ServerPingsAndClosesOnAMissingPong() throws {
        var session = polling()
        _ = session.poll()
        #expect(session.timerFired(.ping) == [.answerPoll("2"), .startTimer(.pingTimeout, milliseconds: 20000)])
        #expect(session.post(Array("3".utf8)) == [.cancelTimer(.pingTimeout), .startTimer(.ping, milliseconds: 25000), .acknowledgePost])
        _ = session.timerFired(.ping)
        #expect(session.poll() == [.answerPoll("2")])
        #expect(session.poll() == [])
        #expect(session.timerFired(.pingTimeout) == [.answerPoll("1"), .close(.pingTimeout)])
    }

    @Test func aHeartbeatTheWrongWayRoundIsATransportError() throws {
        var v4 = polling(.v4)
        #expect(v4.post(Array("2".utf8)) == [.close(.transportError), .acknowledgePost])
        var v3 = polling(.v3)
        #expect(v3.post(Array("1:3".utf8)) == [.close(.transportError), .acknowledgePost])
    }

    @Test func revision3ClientsPingAndTheServerAnswers() throws {
        var session = polling(.v3)
        _ = session.poll()
        #expect(session.post(Array("1:2".utf8)) == [.answerPoll("1:3"), .startTimer(.pingTimeout, milliseconds: 45000), .acknowledgePost])
    }

    @Test func theClientsCloseAnswersAHeldPollWithNoop() throws {
        var session = polling()
        _ = session.poll()
        #expect(session.post(Array("1".utf8)) == [.answerPoll("6"), .close(.transportClose), .acknowledgePost])
    }

    @Test func aDroppedPollIsATransportError() throws {
        var session = polling()
        _ = session.poll()
        #expect(session.pollAbandoned() == [.close(.transportError)])
    }

    @Test func anUpgradeProbesPausesPollingAndMovesTheOutbox() throws {
        var session = polling()
        _ = session.poll()
        #expect(session.beginUpgrade() == [.startTimer(.upgradeTimeout, milliseconds: 10000)])
        #expect(session.probeMessage("2probe") == [.sendProbeMessage("3probe"), .answerPoll("6")])
        // A poll while the client finishes the upgrade comes straight back.
        #expect(session.poll() == [.answerPoll("6")])
        _ = session.send([.message("2[\"x\"]")])
        #expect(session.probeMessage("5") == [.cancelTimer(.upgradeTimeout), .sendMessage("42[\"x\"]")])
        #expect(session.transport == .websocket)
        #expect(session.send([.message("3")]) == [.sendMessage("43")])
        #expect(session.beginUpgrade() == [.closeProbe])
        #expect(session.webSocketMessage("41") == [.deliver("1")])
        #expect(session.webSocketClosed() == [.close(.transportClose)])
    }

    @Test func aFailedUpgradeLeavesTheSessionPolling() throws {
        var session = polling()
        _ = session.beginUpgrade()
        #expect(session.probeMessage("hello") == [.cancelTimer(.upgradeTimeout), .closeProbe])
        #expect(session.transport == .polling)
        _ = session.beginUpgrade()
        _ = session.probeMessage("2probe")
        #expect(session.timerFired(.upgradeTimeout) == [.cancelTimer(.upgradeTimeout), .closeProbe])
        _ = session.beginUpgrade()
        #expect(session.probeClosed() == [.cancelTimer(.upgradeTimeout)])
        #expect(session.isOpen)
    }

    @Test func aServerCloseReachesAPollingClientOnItsNextPoll() throws {
        var session = polling()
        _ = session.send([.message("1")])
        #expect(session.close() == [.cancelTimer(.ping), .cancelTimer(.pingTimeout), .startTimer(.closeTimeout, milliseconds: 30000)])
        #expect(session.poll() == [.answerPoll("41\u{1E}1"), .close(.forcedClose)])
        var unpolled = polling()
        _ = unpolled.close()
        #expect(unpolled.timerFired(.closeTimeout) == [.close(.forcedClose)])
        var held = polling()
        _ = held.poll()
        #expect(held.close() == [.answerPoll("1"), .close(.forcedClose)])
    }

    @Test func webSocketMessagesAreCheckedLikePostedOnes() throws {
        var session = EngineIOSession.open(sid: "s", revision: .v4, transport: .websocket, settings: Self.settings).0
        #expect(session.webSocketMessage("42[\"find\",\"people\"]") == [.deliver("2[\"find\",\"people\"]")])
        #expect(session.webSocketMessage("bAQID") == [.close(.parseError)])
        #expect(session.webSocketMessage("40") == [])
    }

    @Test func aClientThatDoesNotPollLosesItsSessionPastTheOutboxBound() throws {
        var settings = Self.settings
        settings.maxOutboxBytes = 100
        var session = EngineIOSession.open(sid: "s", revision: .v4, transport: .polling, settings: settings).0
        let packet = EngineIOPacket.message(String(repeating: "a", count: 38))
        // Each weighs 40 bytes as the bound counts it: the third would make 120.
        #expect(session.send([packet]) == [])
        #expect(session.send([packet]) == [])
        #expect(session.send([packet]) == [.close(.forcedClose)])
        #expect(!session.isOpen)
        #expect(session.poll() == [.rejectRequest(status: 400)])
    }

    @Test func aSinglePacketOverTheOutboxBoundStillWaitsAlone() throws {
        var settings = Self.settings
        settings.maxOutboxBytes = 100
        var session = EngineIOSession.open(sid: "s", revision: .v4, transport: .polling, settings: settings).0
        let large = EngineIOPacket.message(String(repeating: "b", count: 500))
        #expect(session.send([large]) == [])
        #expect(session.poll() == [.answerPoll(large.encoded)])
        // Taken by the poll, it no longer counts.
        #expect(session.send([.message("small")]) == [])
        #expect(session.isOpen)
    }

    @Test func aPostOfMorePacketsThanTheBoundIsRefusedWholeWith413() throws {
        var settings = Self.settings
        settings.maxPacketsPerPayload = 3
        var session = EngineIOSession.open(sid: "s", revision: .v4, transport: .polling, settings: settings).0
        #expect(session.post(Array("40\u{1E}42[\"a\"]\u{1E}42[\"b\"]\u{1E}42[\"c\"]".utf8)) == [.rejectRequest(status: 413)])
        #expect(session.isOpen)
        #expect(session.post(Array("40\u{1E}42[\"a\"]\u{1E}42[\"b\"]".utf8)) == [.deliver("0"), .deliver("2[\"a\"]"), .deliver("2[\"b\"]"), .acknowledgePost])
    }
}
