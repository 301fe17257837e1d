import MockStackControl
import MockStackCore
import Testing

/// `POST server-events/wait` over a fake app with Server Events, as values: answered at once,
/// deferred until a subscription connects, timed out, bounded, ended with its session.
@Suite struct ServerEventsWaitTests {
    let chat = FakeServerEventsApp()

    private func harness(waits: WaitBudget = WaitBudget()) -> ControlHarness {
        ControlHarness(apps: ControlHarness.apps + [chat], waits: waits)
    }

    private func wait(_ harness: ControlHarness, _ body: JSONValue?, in scope: String = "") -> HTTPResponse {
        harness.send(.post, scope + "/__mockstack/server-events/wait", json: body)
    }

    private func waiting(_ harness: ControlHarness, in scope: String = "") -> JSONValue? {
        harness.json(.get, scope + "/__mockstack/requests/wait")["waiting"]
    }

    private static func subscriber(_ id: String, userId: String = "-1", channels: [String] = ["*"]) -> ServerEventSubscriber {
        FakeServerEventsApp.subscriber(id, userId: userId, channels: channels)
    }

    @Test func subscriptionsAlreadyOpenAnswerAtOnce() throws {
        let harness = harness()
        chat.connect(Self.subscriber("a", channels: ["home"]))
        chat.connect(Self.subscriber("b", channels: ["news"]))
        let reply = wait(harness, ["app": "chat", "channel": "home"])
        #expect(reply.status == 200 && reply.delivery == .immediate)
        #expect(try JSONParser().parse(reply.body).root
            == ["subscribers": [ServerEventsControlTests.listed(Self.subscriber("a", channels: ["home"]))]])
        #expect(waiting(harness) == 0, "nothing waits when they were there")
    }

    @Test func aWaitIsAnsweredWhenEnoughMatchingSubscriptionsHaveConnected() throws {
        let harness = harness()
        let reply = wait(harness, ["app": "chat", "channel": "home", "userId": "7", "count": 2, "timeoutMs": 60_000])
        #expect(reply.status == 408)
        #expect(try JSONParser().parse(reply.body).root == ServerEventsControlTests.error(
            408, "Request Timeout",
            "Fewer than 2 Server Events subscriptions of app 'chat' in channel 'home' of user '7' were open within 60000 ms"))
        let delivered = try WaitTests.Delivered(reply)
        #expect(delivered.answer.timeoutMilliseconds == 60_000)
        #expect(waiting(harness) == 1)
        chat.connect(Self.subscriber("a", userId: "7", channels: ["home"]))
        chat.connect(Self.subscriber("b", userId: "7", channels: ["news"]))
        chat.connect(Self.subscriber("c", userId: "8", channels: ["home"]))
        chat.report(RealtimeActivity(kind: .event, connection: nil, name: "cmd.chat", recipients: 3))
        #expect(delivered.responses.isEmpty, "one match so far")
        chat.connect(Self.subscriber("d", userId: "7", channels: ["home", "news"]))
        #expect(delivered.responses.map(\.status) == [200])
        #expect(delivered.json == ["subscribers": [
            ServerEventsControlTests.listed(Self.subscriber("a", userId: "7", channels: ["home"])),
            ServerEventsControlTests.listed(Self.subscriber("d", userId: "7", channels: ["home", "news"])),
        ]])
        #expect(waiting(harness) == 0, "its place is free again")
        chat.connect(Self.subscriber("e", userId: "7", channels: ["home"]))
        #expect(delivered.responses.count == 1, "answered once")
    }

    @Test func aWaitThatTimesOutLeavesNoWaiter() throws {
        let harness = harness()
        let reply = wait(harness, ["app": "chat", "timeoutMs": 10])
        #expect(try JSONParser().parse(reply.body).root == ServerEventsControlTests.error(
            408, "Request Timeout", "No Server Events subscription of app 'chat' was open within 10 ms"))
        let delivered = try WaitTests.Delivered(reply)
        #expect(delivered.answer.timeoutMilliseconds == 10)
        // The transport's timer fires: the 408 above goes out, and the wait lets go.
        #expect(delivered.answer.end(.timedOut))
        #expect(waiting(harness) == 0)
        chat.connect(Self.subscriber("late"))
        #expect(delivered.responses.isEmpty)
    }

    @Test func waitsShareTheJournalWaitsBudget() throws {
        let harness = harness(waits: WaitBudget(limit: 1))
        let first = try WaitTests.Delivered(wait(harness, ["app": "chat"]))
        let refused = wait(harness, ["app": "chat"])
        #expect(refused.status == 429)
        #expect(try JSONParser().parse(refused.body).root == ServerEventsControlTests.error(
            429, "Too Many Requests",
            "1 requests are waiting already (for journal entries or Server Events subscriptions), the most at once; "
                + "try again when one has ended"))
        #expect(harness.send(.post, "/__mockstack/requests/wait", json: ["timeoutMs": 10]).status == 429)
        chat.connect(Self.subscriber("a"))
        #expect(first.responses.map(\.status) == [200])
        #expect(waiting(harness) == 0)
    }

    @Test func aBadWaitIsRefusedSayingWhatIsWrong() {
        let harness = harness()
        let keys = "app, channel, userId, count, timeoutMs"
        let refused: [(JSONValue?, Int, String)] = [
            (nil, 400, "The body must be a JSON object with \(keys)"),
            (["app": "chat", "channels": ["a"]], 400, "Unknown key 'channels' (keys: \(keys))"),
            ([:], 400, "'app' must name an app with Server Events (chat)"),
            (["app": "test"], 404, "No app with Server Events named 'test' (apps with Server Events: chat)"),
            (["app": "chat", "channel": ""], 400, "'channel' must be a non-empty string"),
            (["app": "chat", "userId": 7], 400, "'userId' must be a non-empty string"),
            (["app": "chat", "count": 0], 400, "'count' must be a whole number of subscriptions, 1 or more"),
            (["app": "chat", "timeoutMs": 300_001], 400,
             "'timeoutMs' must be a whole number of milliseconds from 0 to 300000"),
        ]
        for (body, status, message) in refused {
            let response = wait(harness, body)
            #expect(response.status == status, "\(String(describing: body))")
            let reason = status == 404 ? "Not Found" : "Bad Request"
            #expect((try? JSONParser().parse(response.body).root) == ServerEventsControlTests.error(status, reason, message))
        }
        #expect(harness.send(.get, "/__mockstack/server-events/wait").status == 405)
        #expect(waiting(harness) == 0)
    }

    @Test func aSessionsWaitHearsItsOwnSubscriptionsOnlyAndTheServersHearsNotTheSessions() throws {
        let harness = harness()
        let inSession = try WaitTests.Delivered(wait(harness, ["app": "chat"], in: "/__session/s1"))
        let onServer = try WaitTests.Delivered(wait(harness, ["app": "chat"]))
        let copy = try #require(chat.copies.first)
        #expect(waiting(harness, in: "/__session/s1") == 1 && waiting(harness) == 2)
        chat.connect(Self.subscriber("server"))
        #expect(inSession.responses.isEmpty)
        #expect(onServer.json == ["subscribers": [ServerEventsControlTests.listed(Self.subscriber("server"))]])
        let later = try WaitTests.Delivered(wait(harness, ["app": "chat", "count": 2]))
        copy.connect(Self.subscriber("mine"))
        copy.connect(Self.subscriber("mine too"))
        #expect(inSession.json == ["subscribers": [ServerEventsControlTests.listed(Self.subscriber("mine"))]])
        #expect(later.responses.isEmpty, "the session's subscriptions are not the server's")
    }

    @Test func endingTheSessionAnswersItsWaits410() throws {
        let harness = harness()
        let inSession = try WaitTests.Delivered(wait(harness, ["app": "chat"], in: "/__session/s1"))
        #expect(harness.send(.delete, "/__mockstack/sessions/s1").status == 204)
        #expect(inSession.json == ServerEventsControlTests.error(
            410, "Gone",
            "Session 's1' ended while this request waited for Server Events subscriptions (deleted); none of it can "
                + "open any more"))
        #expect(waiting(harness) == 0, "its place is free again")
    }
}
