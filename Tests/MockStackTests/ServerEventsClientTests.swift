import Foundation
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing

/// ServiceStack Server Events end to end with a client nobody here wrote: PyPI's sseclient-py on
/// the shipped `test` app's `/event-stream`, over loopback (docs/servicestack-server-events.md).
/// Skipped without the client, unless make test requires it.
@Suite(
    .timeLimit(.minutes(3)),
    .enabled(if: SSEClients.available || SSEClients.required, "\(SSEClients.missingMessage)"))
struct ServerEventsClientTests {
    /// A server of its own with the `test` app, for one scenario.
    func run(_ scenario: String) throws -> String {
        let configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test"])
        let mock = try InProcessMockStack(configuration: configuration)
        defer { mock.stop() }
        return try SSEClients.run(appURL: mock.baseURL.absoluteString + "/test", scenario: scenario)
    }

    /// `cmd.onConnect` first, with id 1: the anonymous meta, a 20-character id, and absolute URLs
    /// from the one the client used.
    @Test func theFirstEventIsTheConnectEvent() throws {
        #expect(try run("connect") == #"""
            {"eventId": "1", "fields": {"channels": "home,news", "createdAt": true, "displayName": "user1", \#
            "heartbeatIntervalMs": "10000", "heartbeatUrl": "ORIGIN/event-heartbeat?id=ID", "id": true, \#
            "idleTimeoutMs": "30000", "isAuthenticated": "false", "profileUrl": true, \#
            "unRegisterUrl": "ORIGIN/event-unregister?id=ID", "updateSubscriberUrl": "ORIGIN/event-subscribers/ID", \#
            "userId": "-1"}}
            """#)
    }

    /// As servicestack-client's tests expect: each hears its own join and those after it; the one
    /// that stays hears the leave, the leaver's stream just ends.
    @Test func joinsAndLeavesReachTheChannel() throws {
        #expect(try run("join_leave") == #"""
            {"firstHeard": ["home@cmd.onJoin", "home@cmd.onJoin", "home@cmd.onLeave"], \#
            "firstHeardBefore": ["home@cmd.onJoin", "home@cmd.onJoin"], "joinedNames": ["user1", "user2"], \#
            "leaverName": "user2", "secondEnded": true, "secondHeard": ["home@cmd.onJoin"], \#
            "secondHeardAfter": ["home@cmd.onJoin"], "unregistered": [200, "user2"]}
            """#)
    }

    /// PostChatToChannel's message, HTML-encoded, and PostRawToChannel's JSON string reach both.
    @Test func aChatAndARawMessageReachEverySubscriber() throws {
        let chat = #"""
            home@cmd.chat {\"id\":1,\"channel\":\"home\",\"fromUserId\":\"-1\",\"fromName\":\"user1\",\#
            \"message\":\"hi &lt;all&gt;\",\"private\":false}
            """#
        let frames = #"["\#(chat)", "home@cmd.raw \"plain text\""]"#
        #expect(try run("chat") == #"""
            {"answer": [200, {"channel": "home", "fromName": "user1", "fromUserId": true, "id": 1, \#
            "message": "hi &lt;all&gt;", "private": false}], "firstFrames": \#(frames), "raw": 204, \#
            "secondFrames": \#(frames)}
            """#)
    }

    /// A heartbeat is answered and heard, an update adds a channel to a live stream, and after
    /// ResetServerEvents the heartbeat answers 404 with the documented reason.
    @Test func heartbeatsUpdatesAndAReset() throws {
        #expect(try run("heartbeat_update_reset") == #"""
            {"afterReset": [404, "Subscription 'ID' does not exist", ""], "beat": [200, ""], \#
            "heardBeat": "cmd.onHeartbeat", "news": "news@cmd.chat", "reset": 204, "update": [200, {}], \#
            "updatedChannels": "home,news", "updates": ["home@cmd.onUpdate", "news@cmd.onUpdate"]}
            """#)
    }

    /// A JWT from CreateJwt in `?ss-tok=` subscribes as its user.
    @Test func aTokenInTheQuerySubscribesAsItsUser() throws {
        #expect(try run("jwt") == #"""
            {"channels": "home", "displayName": "ann", "isAuthenticated": "true", "userId": "7"}
            """#)
    }
}
