import Foundation
import MockStack
import MockStackInProcess
import MockStackJSON
import MockStackTesting
import Testing
import TestSupport

/// Server Events' bounds end to end, each with its documented answer, the other clients served
/// on (docs/servicestack-server-events.md#limits).
@Suite(.timeLimit(.minutes(3)))
struct ServerEventsBoundsTests {
    /// Past `maxSubscriptions` a stream is refused with 503; past `maxMessageBytes` the control
    /// plane answers 413 and PostRawToChannel 400, and nothing is sent.
    @Test func theSubscriptionAndMessageBounds() async throws {
        // Patient too (ServerEventsServer.patient()): the streams are held across awaits.
        let settings = #"{"maxSubscriptions": 3, "maxMessageBytes": 100, "idleTimeoutMs": 600000}"#
        let server = try ServerEventsServer(serverEvents: settings)
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let streams = try (1...3).map { _ in
            try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        }
        try await mock.waitForServerEventSubscriber(app: "test", count: 3)
        let fourth = try rawExchange(port: port, "GET /test/event-stream HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(fourth.status == 503)
        #expect(fourth.text.contains(
            #""message":"Too many Server Events subscriptions: at most 3 may be open at once""#))

        let long = String(repeating: "x", count: 120)
        await #expect(throws: MockStackControlError.self) {
            try await mock.sendServerEvent(app: "test", selector: "cmd.long", message: .string(long))
        }
        _ = try await offThePool { streams[0].frames(4) }
        let from = try #require(streams[0].subscriptionID)
        let body = #"{"from":"\#(from)","channel":"home","selector":"cmd.raw","message":"\#(long)"}"#
        let raw = try rawExchange(port: port, "POST /test/api/PostRawToChannel HTTP/1.1\r\nHost: t\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(raw.status == 400 && raw.text.contains(#""errorCode":"ArgumentException""#))
        #expect(raw.text.contains(#""message":"The message is 122 bytes; Server Events here send at most 100""#))
        try await mock.sendServerEvent(app: "test", selector: "cmd.after", to: .channel("home"))
        #expect(try await offThePool { streams[0].frames(5) }.last == "home@cmd.after ")
    }

    /// Subscriptions that stop heartbeating are dropped once their idle timeout passes: each
    /// stream ends with the last chunk, the journal says why, and the one dropped first is heard
    /// leaving by the other, still there (whichever the machine's timers fire first).
    @Test func silentSubscriptionsExpire() async throws {
        let server = try ServerEventsServer(serverEvents: #"{"idleTimeoutMs": 300, "heartbeatIntervalMs": 100}"#)
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let streams = try (1...2).map { _ in
            try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        }
        for stream in streams {
            #expect(try await offThePool { stream.readToEnd() } == .closed)
            #expect(stream.chunks.last)
        }
        let leaves = streams.flatMap(\.frames).filter { $0.hasPrefix("home@cmd.onLeave") }
        #expect(leaves.count == 1)
        #expect(leaves.first?.hasPrefix(#"home@cmd.onLeave {"channels":"home","userId":"-"#) == true)
        let request = "GET /__mockstack/sockets/activity?kind=disconnected HTTP/1.1\r\nHost: t\r\n\r\n"
        #expect(try rawExchange(port: port, request).text.components(separatedBy: #""name":"idle timeout""#).count == 3)
    }

    /// A client that reads nothing is reset once 4 MiB wait for it; the others hear it leave and
    /// are served on.
    @Test func aClientThatNeverReadsIsDropped() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let stuck = try RawConnection(port: port, receiveBufferBytes: 4096)
        try stuck.send("GET /test/event-stream?channels=home HTTP/1.1\r\nHost: t\r\n\r\n")
        let stuckID = try #require(try await mock.waitForServerEventSubscriber(app: "test").first?.id)
        let other = try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        _ = try await offThePool { other.frames(2) }
        let block = JSONValue.string(String(repeating: "x", count: 512 * 1024))
        var sends = 0
        while sends < 40, try await mock.serverEventSubscribers().contains(where: { $0.id == stuckID }) {
            try await mock.sendServerEvent(
                app: "test", selector: "cmd.block", message: block, to: .subscription(stuckID))
            sends += 1
        }
        #expect(sends >= 8 && sends < 40)
        let frames = try await offThePool { other.frames(3) }
        #expect(frames.last?.hasPrefix(#"home@cmd.onLeave {"channels":"home","userId":"-1""#) == true)
        try await mock.sendServerEvent(app: "test", selector: "cmd.still", to: .channel("home"))
        #expect(try await offThePool { other.frames(4) }.last == "home@cmd.still ")
        // Open until here: the server, not the client leaving, ended the subscription.
        withExtendedLifetime(stuck) {}
    }
}
