import Foundation
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The control plane and MockStackTesting steering the `test` app's Server Events end to end, and
/// the faults it can cause (docs/servicestack-server-events.md#sessions-reset-and-the-control-plane).
@Suite(.timeLimit(.minutes(3)))
struct ServerEventsSteeringTests {
    /// `kind name` of each activity entry the journal holds for `app`, oldest first.
    static func activity(_ port: Int) throws -> [String] {
        let request = "GET /__mockstack/sockets/activity?app=test HTTP/1.1\r\nHost: t\r\n\r\n"
        let answer = try rawExchange(port: port, request)
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        let entries = object?["activity"] as? [[String: Any]] ?? []
        return entries.map { entry in
            let recipients = (entry["recipients"] as? Int).map { " to \($0)" } ?? ""
            return "\(entry["kind"] ?? "") \(entry["name"] ?? "")\(recipients)"
        }
    }

    /// A test waits for a client instead of sleeping, lists it, sends it messages by channel,
    /// subscription and user, sees the journal, and ends its stream with mockstack's reset.
    @Test func aTestWaitsForSendsToAndResetsSubscribers() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        async let joined = mock.waitForServerEventSubscriber(app: "test", channel: "home")
        let stream = try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        let subscriber = try #require(try await joined.first)
        #expect(subscriber.userId == "-1" && subscriber.displayName == "user1" && subscriber.channels == ["home"])
        #expect(try await mock.serverEventSubscribers(app: "test").map(\.id) == [subscriber.id])
        #expect(try await mock.serverEventSubscribers(app: "test", channel: "news").isEmpty)

        #expect(try await mock.sendServerEvent(
            app: "test", selector: "cmd.announce", message: "hi", to: .channel("home")) == 1)
        #expect(try await mock.sendServerEvent(
            app: "test", selector: "cmd.one", message: ["n": 1], to: .subscription(subscriber.id)) == 1)
        #expect(try await mock.sendServerEvent(app: "test", selector: "cmd.user", to: .user("-1")) == 1)
        let frames = try await offThePool { stream.frames(5) }
        #expect(Array(frames.dropFirst(2)) == [#"home@cmd.announce "hi""#, #"cmd.one {"n":1}"#, "cmd.user "])

        try await mock.reset()
        #expect(try await offThePool { stream.readToEnd() } == .closed)
        #expect(stream.chunks.last)
        #expect(try await mock.serverEventSubscribers().isEmpty)
        // The reset emptied the journal; before it, it held the connection and each event.
        let after = try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        _ = try await offThePool { after.frames(2) }
        try await mock.sendServerEvent(app: "test", selector: "cmd.bye", to: .channel("home"))
        let unregister = "POST /test/event-unregister?id=\(after.subscriptionID ?? "") HTTP/1.1\r\nHost: t\r\n"
        #expect(try rawExchange(port: port, unregister + "Content-Length: 0\r\n\r\n").status == 200)
        #expect(try Self.activity(port) == [
            "connected Server Events", "event home@cmd.onJoin to 1", "event home@cmd.bye to 1",
            "disconnected unregistered", "event home@cmd.onLeave to 0",
        ])
    }

    /// A session's subscribers are its own: the server's listing and channels do not see them.
    @Test func aSessionsSubscribersAreItsOwn() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let outside = try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        let inside = try EventStreamConnection(port: port, path: "/__session/s1/test/event-stream?channels=home")
        let insideFrames = try await offThePool { inside.frames(2) }
        _ = try await offThePool { outside.frames(2) }
        let listing = "GET /__session/s1/__mockstack/server-events HTTP/1.1\r\nHost: t\r\n\r\n"
        let listed = try rawExchange(port: port, listing)
        #expect(listed.text.contains(#""id":"\#(inside.subscriptionID ?? "")""#))
        #expect(!listed.text.contains(outside.subscriptionID ?? "-"))
        #expect(try await mock.serverEventSubscribers().map(\.id) == [outside.subscriptionID])
        // Each is user 1 of its own count, and hears its own join only.
        #expect(insideFrames[1].contains(#""displayName":"user1""#))
        try await mock.sendServerEvent(app: "test", selector: "cmd.outside", to: .channel("home"))
        #expect(try await offThePool { outside.frames(3) }.last == "home@cmd.outside ")
        #expect(inside.frames.count == 2)
    }

    /// `"cut": true` leaves the client half a frame and the connection's end, no last chunk.
    @Test func aCutStreamEndsMidMessage() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let stream = try EventStreamConnection(port: mock.ready.port, path: "/test/event-stream?channels=home")
        _ = try await offThePool { stream.frames(2) }
        let message: JSONValue = ["text": .string(String(repeating: "x", count: 100))]
        try await mock.sendServerEvent(app: "test", selector: "cmd.cut", message: message, cut: true)
        #expect(try await offThePool { stream.readToEnd() } == .closed)
        let chunks = stream.chunks
        // The half frame comes as a chunk of its own; the body's last chunk never does.
        #expect(!chunks.last && chunks.complete.count == 2 && chunks.partial.isEmpty)
        let half = try #require(chunks.complete.last)
        #expect(half.hasPrefix(#"id: 3\#ndata: cmd.cut {"text":"xxx"#) && !half.contains("\n\n"))
        #expect(half.utf8.count < #"id: 3\#ndata: cmd.cut {"text":""}"#.utf8.count + 100)
    }

    /// A delayed request delays the head and `cmd.onConnect`; the event delay holds frames back in
    /// order.
    @Test func delaysHoldTheConnectAndTheFramesInOrder() async throws {
        let server = try ServerEventsServer.patient()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let clock = ContinuousClock()
        let started = clock.now
        let late = try EventStreamConnection(
            port: port, path: "/test/event-stream", headers: "X-MockStack-Delay: 300\r\n")
        #expect(try await offThePool { late.frames(1) }.first?.hasPrefix("cmd.onConnect {") == true)
        #expect(clock.now - started >= .milliseconds(300))

        let put = "PUT /__mockstack/events/delay HTTP/1.1\r\nHost: t\r\nContent-Length: 24\r\n\r\n"
        #expect(try rawExchange(port: port, put + #"{"app":"test","ms":200} "#).status == 200)
        let sent = clock.now
        for index in 1...3 {
            try await mock.sendServerEvent(app: "test", selector: "cmd.n", message: .number(JSONNumber(index)))
        }
        let frames = try await offThePool { late.frames(5) }
        #expect(clock.now - sent >= .milliseconds(200))
        #expect(Array(frames.suffix(3)) == ["cmd.n 1", "cmd.n 2", "cmd.n 3"])
    }
}
