import MockStackControl
import MockStackCore
import Testing

/// `GET` and `POST server-events` over a fake app with Server Events, as values: the listing
/// and its filters, the message as the app receives it, and every refusal with its status.
@Suite struct ServerEventsControlTests {
    let chat = FakeServerEventsApp()
    /// A ServiceStack-like app whose Server Events are off: never listed nor sent to.
    let quiet = FakeServerEventsApp(name: "quiet", serverEvents: false)
    var harness: ControlHarness { ControlHarness(apps: ControlHarness.apps + [chat, quiet]) }

    /// `subscriber`'s JSON as the endpoint lists it: with its app's name last.
    static func listed(_ subscriber: ServerEventSubscriber, app: String = "chat") -> JSONValue {
        guard case .object(var object) = subscriber.json else { return .null }
        object["app"] = .string(app)
        return .object(object)
    }

    static func error(_ status: Int, _ reason: String, _ message: String) -> JSONValue {
        ["status": .number(JSONNumber(status)), "error": .string(reason), "message": .string(message)]
    }

    private func connectThree() -> [ServerEventSubscriber] {
        let subscribers = [
            FakeServerEventsApp.subscriber("a", userId: "7", channels: ["home", "news"]),
            FakeServerEventsApp.subscriber("b", channels: ["news"]),
            FakeServerEventsApp.subscriber("c", userId: "7"),
        ]
        subscribers.forEach(chat.connect)
        return subscribers
    }

    @Test func subscriptionsAreListedWithTheirAppAndFilteredByChannel() {
        let harness = harness
        let listed = connectThree().map { Self.listed($0) }
        let (a, b, c) = (listed[0], listed[1], listed[2])
        #expect(harness.json(.get, "/__mockstack/server-events") == ["subscribers": [a, b, c]])
        #expect(a["channels"] == ["home", "news"] && a["createdAt"] == 1_700_000_000_000 && a["idleMs"] == 5)
        #expect(harness.json(.get, "/__mockstack/server-events?channel=news") == ["subscribers": [a, b]])
        #expect(harness.json(.get, "/__mockstack/server-events?app=chat&channel=home") == ["subscribers": [a]])
        #expect(harness.json(.get, "/__mockstack/server-events?channel=nobody") == ["subscribers": []])
        let head = harness.send(.head, "/__mockstack/server-events")
        #expect(head.status == 200)
    }

    @Test func theListRefusesUnknownParametersAndAppsWithoutServerEvents() {
        let harness = harness
        #expect(harness.send(.get, "/__mockstack/server-events?chanel=x").status == 400)
        #expect(harness.json(.get, "/__mockstack/server-events?chanel=x")
            == Self.error(400, "Bad Request", "Unknown parameter 'chanel' (parameters: app, channel)"))
        let notFound = Self.error(
            404, "Not Found", "No app with Server Events named 'quiet' (apps with Server Events: chat)")
        #expect(harness.send(.get, "/__mockstack/server-events?app=quiet").status == 404)
        #expect(harness.json(.get, "/__mockstack/server-events?app=quiet") == notFound)
        #expect(harness.send(.delete, "/__mockstack/server-events").status == 405)
        #expect(harness.send(.delete, "/__mockstack/server-events").headers["Allow"] == "GET, HEAD, POST")
    }

    @Test func theSubscriptionsAreAlsoListedAmongTheSockets() {
        let harness = harness
        chat.connect(FakeServerEventsApp.subscriber("a"))
        #expect(harness.json(.get, "/__mockstack/sockets")["sockets"] == [
            ["id": "a", "transport": "event-stream", "protocol": "Server Events", "signedIn": false,
             "channels": ["*"], "app": "chat"],
        ])
    }

    @Test func aMessageGoesToItsTargetAsTheAppReceivesIt() {
        let harness = harness
        _ = connectThree()
        let send = { (body: JSONValue) in harness.json(.post, "/__mockstack/server-events", body) }
        #expect(send(["app": "chat", "selector": "cmd.announce", "message": ["text": "hi"]]) == ["sent": 3])
        #expect(send(["app": "chat", "selector": "cmd.chat", "message": "hello", "channel": "news"]) == ["sent": 2])
        #expect(send(["app": "chat", "selector": "trigger.refresh", "subscription": "b", "cut": true]) == ["sent": 1])
        #expect(send(["app": "chat", "selector": "cmd.toggle", "message": nil, "userId": "7"]) == ["sent": 2])
        #expect(chat.sent == [
            ServerEventMessage(selector: "cmd.announce", body: ["text": "hi"], target: .everyone),
            ServerEventMessage(selector: "cmd.chat", body: "hello", target: .channel("news")),
            ServerEventMessage(selector: "trigger.refresh", body: nil, target: .subscription("b"), cut: true),
            ServerEventMessage(selector: "cmd.toggle", body: nil, target: .user("7")),
        ])
    }

    @Test func aBadMessageIsRefusedSayingWhatIsWrong() {
        let harness = harness
        let keys = "app, selector, message, channel, subscription, userId, cut"
        let refused: [(JSONValue?, String)] = [
            (nil, "The body must be a JSON object with \(keys)"),
            (["app", "selector"], "The body must be a JSON object with \(keys)"),
            (["app": "chat", "selector": "cmd.x", "to": "a"], "Unknown key 'to' (keys: \(keys))"),
            (["selector": "cmd.x"], "'app' must name an app with Server Events (chat)"),
            (["app": "chat"], "'selector' must be the message's selector, a non-empty string (cmd.announce)"),
            (["app": "chat", "selector": ""], "'selector' must be the message's selector, a non-empty string (cmd.announce)"),
            (["app": "chat", "selector": 1], "'selector' must be the message's selector, a non-empty string (cmd.announce)"),
            (["app": "chat", "selector": "cmd.x", "channel": "a", "userId": "7"],
             "Give at most one of 'channel', 'subscription' and 'userId' (none sends to everyone); found 'channel' and 'userId'"),
            (["app": "chat", "selector": "cmd.x", "subscription": ""], "'subscription' must be a non-empty string"),
            (["app": "chat", "selector": "cmd.x", "channel": ["a"]], "'channel' must be a non-empty string"),
            (["app": "chat", "selector": "cmd.x", "cut": "yes"], "'cut' must be true or false"),
        ]
        for (body, message) in refused {
            let response = harness.send(.post, "/__mockstack/server-events", json: body)
            #expect(response.status == 400, "\(String(describing: body))")
            #expect(harness.json(.post, "/__mockstack/server-events", body) == Self.error(400, "Bad Request", message))
        }
        #expect(harness.json(.post, "/__mockstack/server-events", ["app": "quiet", "selector": "cmd.x"])
            == Self.error(404, "Not Found", "No app with Server Events named 'quiet' (apps with Server Events: chat)"))
        #expect(chat.sent.isEmpty, "nothing reached the app")
    }

    @Test func theAppsRefusalsAnswerWithTheirStatusAndMessage() throws {
        let harness = harness
        let send = { (body: JSONValue) in harness.send(.post, "/__mockstack/server-events", json: body) }
        let unknown = send(["app": "chat", "selector": "cmd.x", "subscription": "gone"])
        #expect(unknown.status == 404)
        #expect(try JSONParser().parse(unknown.body).root == Self.error(404, "Not Found", "No subscription 'gone'"))
        let invalid = send(["app": "chat", "selector": "a@b"])
        #expect(invalid.status == 400)
        #expect(try JSONParser().parse(invalid.body).root
            == Self.error(400, "Bad Request", "'@' is not allowed in a selector"))
        let large = send(["app": "chat", "selector": "cmd.x", "message": .string(String(repeating: "x", count: 100))])
        #expect(large.status == 413)
        #expect(try JSONParser().parse(large.body).root
            == Self.error(413, "Payload Too Large", "The message is 102 bytes; the limit is 64"))
    }

    @Test func aSessionSeesAndSendsToItsOwnSubscriptionsOnly() throws {
        let harness = harness
        chat.connect(FakeServerEventsApp.subscriber("server"))
        #expect(harness.json(.get, "/__session/s1/__mockstack/server-events") == ["subscribers": []])
        let copy = try #require(chat.copies.first)
        copy.connect(FakeServerEventsApp.subscriber("mine"))
        #expect(harness.json(.get, "/__session/s1/__mockstack/server-events")
            == ["subscribers": [Self.listed(FakeServerEventsApp.subscriber("mine"))]])
        #expect(harness.json(.get, "/__mockstack/server-events")
            == ["subscribers": [Self.listed(FakeServerEventsApp.subscriber("server"))]])
        #expect(harness.json(.post, "/__session/s1/__mockstack/server-events", ["app": "chat", "selector": "cmd.x"])
            == ["sent": 1])
        #expect(copy.sent.map(\.selector) == ["cmd.x"] && chat.sent.isEmpty)
    }
}
