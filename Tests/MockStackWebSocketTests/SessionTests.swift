@testable import MockStackWebSocket
import Testing

/// The connection's state machine without sockets: what it sends, reports and asks of the connection.
struct SessionTests {
    static func client(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketFrame.encode(opcode, payload, fin: fin, mask: [1, 2, 3, 4])
    }

    static func close(_ code: WebSocketCloseCode, _ reason: String = "") -> [UInt8] {
        WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason: reason))
    }

    @Test func answersPingsWithPongsAndReportsMessages() {
        var session = WebSocketSession(maxMessageBytes: 100)
        let output = session.receive(Self.client(.ping, [7, 8]) + Self.client(.text, Array("hi".utf8)) + Self.client(.pong, []))
        #expect(output.bytes == WebSocketFrame.encode(.pong, [7, 8]))
        #expect(output.events == [.message(.text("hi"))])
        #expect(!output.endsConnection && session.state == .open)
        #expect(session.frame(for: .text("yo")) == [0x81, 2] + Array("yo".utf8))
        #expect(session.frame(for: .binary([9])) == [0x82, 1, 9])
    }

    @Test func echoesTheClientsCloseAndEnds() {
        var session = WebSocketSession(maxMessageBytes: 100)
        let output = session.receive(Self.client(.close, WebSocketFrame.closePayload(WebSocketCloseCode(4000), reason: "done")))
        #expect(output.bytes == Self.close(WebSocketCloseCode(4000)))
        #expect(output.events == [.closed(code: WebSocketCloseCode(4000), reason: "done")])
        #expect(output.endsConnection && session.state == .closed)
        #expect(session.frame(for: .text("late")) == nil)
        // The connection's end after that reports nothing more.
        #expect(session.connectionEnded().events.isEmpty)

        var empty = WebSocketSession(maxMessageBytes: 100)
        let emptyOutput = empty.receive(Self.client(.close, []))
        #expect(emptyOutput.bytes == [0x88, 0])
        #expect(emptyOutput.events == [.closed(code: .noStatus, reason: "")])
    }

    @Test func aCloseWeStartWaitsForTheClients() {
        var session = WebSocketSession(maxMessageBytes: 100)
        let output = session.close(code: .normal, reason: "bye")
        #expect(output.bytes == Self.close(.normal, "bye"))
        #expect(output.awaitsPeerClose && !output.endsConnection && output.events.isEmpty)
        #expect(session.state == .closing)
        #expect(session.frame(for: .text("x")) == nil && session.pingFrame([]) == nil)
        // A message still in flight from the client is reported; its ping is not answered.
        let inFlight = session.receive(Self.client(.text, Array("last".utf8)) + Self.client(.ping, []))
        #expect(inFlight.events == [.message(.text("last"))] && inFlight.bytes.isEmpty)
        let answer = session.receive(Self.client(.close, WebSocketFrame.closePayload(.normal, reason: "")))
        #expect(answer.bytes.isEmpty, "our close is already out")
        #expect(answer.endsConnection && answer.events == [.closed(code: .normal, reason: "")])
        #expect(session.closeTimedOut() == WebSocketSession.Output())
    }

    @Test func aCloseUnansweredInTimeEndsTheConnection() {
        var session = WebSocketSession(maxMessageBytes: 100)
        _ = session.close(code: WebSocketCloseCode(4100), reason: "")
        let output = session.closeTimedOut()
        #expect(output.endsConnection && output.bytes.isEmpty)
        #expect(output.events == [.closed(code: .abnormal, reason: "no close frame from the client in time")])
    }

    @Test func failsTheConnectionWithTheReadersCode() {
        var session = WebSocketSession(maxMessageBytes: 4)
        let output = session.receive(Self.client(.binary, [1, 2, 3, 4, 5]))
        #expect(output.bytes == Self.close(.messageTooBig, "a message over the limit of 4 bytes"))
        #expect(output.events == [.closed(code: .messageTooBig, reason: "a message over the limit of 4 bytes")])
        #expect(output.endsConnection)
        #expect(session.receive(Self.client(.text, Array("x".utf8))) == WebSocketSession.Output())

        var unmasked = WebSocketSession(maxMessageBytes: 100)
        #expect(unmasked.receive(WebSocketFrame.encode(.text, Array("x".utf8))).bytes == Self.close(.protocolError, "a client frame must be masked"))
    }

    @Test func aServerStopSaysGoingAway() {
        var session = WebSocketSession(maxMessageBytes: 100)
        let output = session.serverStopping()
        #expect(output.bytes == Self.close(.goingAway, "server stopping"))
        #expect(output.endsConnection && output.events == [.closed(code: .goingAway, reason: "server stopping")])
    }

    @Test func aConnectionLostWithoutACloseIsAbnormal() {
        var session = WebSocketSession(maxMessageBytes: 100)
        #expect(session.connectionEnded().events == [.closed(code: .abnormal, reason: "")])
        #expect(session.connectionEnded().events.isEmpty)
    }

    @Test func closeReasonsAreCutToFitAtACharactersEnd() {
        let payload = WebSocketFrame.closePayload(.normal, reason: String(repeating: "é", count: 100))
        #expect(payload.count == 2 + 122)
        #expect(String(validating: payload[2...], as: UTF8.self) == String(repeating: "é", count: 61))
    }
}
