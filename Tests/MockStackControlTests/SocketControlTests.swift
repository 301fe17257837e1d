import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// `sockets`, `events` and `events/delay` over an app that keeps connections, as values.
@Suite struct SocketControlTests {
    /// Two connections, one signed in; records what the control plane asks of it.
    final class SocketApp: RealtimeApp, Sendable {
        let name = "live"
        let mount = "/live"
        let kind = "fake"
        var routes: [RouteDescription] { [] }
        let open = Mutex(["a1", "b2"])
        let pushed = Mutex<[String]>([])
        let delay = Mutex(0)

        func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 404) }

        var realtimeConnections: [RealtimeConnection] {
            open.withLock { $0 }.map { id in
                RealtimeConnection(id: id, transport: "websocket", protocolName: "Engine.IO 4, Socket.IO 5", signedIn: id == "a1",
                                   channels: [id == "a1" ? "authenticated" : "anonymous"])
            }
        }

        func disconnect(_ id: String) -> Bool {
            open.withLock { open in
                guard let index = open.firstIndex(of: id) else { return false }
                open.remove(at: index)
                return true
            }
        }

        func disconnectAll() { open.withLock { $0.removeAll() } }

        func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int {
            pushed.withLock { $0.append("\(name) \(JSONValue.array(arguments).jsonText) \(audience.rawValue)") }
            return audience == .all ? 2 : 1
        }

        func delayEvents(byMilliseconds milliseconds: Int) { delay.withLock { $0 = milliseconds } }
        var eventDelayMilliseconds: Int { delay.withLock { $0 } }
        let observer = Mutex<(@Sendable (RealtimeActivity) -> Void)?>(nil)
        func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) { self.observer.withLock { $0 = observer } }
        func report(_ activity: RealtimeActivity) { observer.withLock { $0 }?(activity) }
    }

    let app = SocketApp()
    var harness: ControlHarness { ControlHarness(apps: ControlHarness.apps + [app]) }

    @Test func socketsAreListedAndDropped() throws {
        let harness = harness
        #expect(harness.json(.get, "/__mockstack/sockets") == [
            "sockets": [
                ["id": "a1", "transport": "websocket", "protocol": "Engine.IO 4, Socket.IO 5", "signedIn": true, "channels": ["authenticated"], "app": "live"],
                ["id": "b2", "transport": "websocket", "protocol": "Engine.IO 4, Socket.IO 5", "signedIn": false, "channels": ["anonymous"], "app": "live"],
            ],
            "eventDelayMs": ["live": 0],
        ])
        #expect(harness.send(.delete, "/__mockstack/sockets/b2").status == 204)
        #expect(harness.json(.delete, "/__mockstack/sockets/b2") == ["status": 404, "error": "Not Found", "message": "No socket 'b2'"])
        #expect(harness.json(.get, "/__mockstack/sockets?app=test") == ["sockets": [], "eventDelayMs": [:]])
        #expect(harness.json(.get, "/__mockstack/sockets?ap=live")["message"] == "Unknown parameter 'ap' (parameters: app)")
        #expect(harness.send(.post, "/__mockstack/sockets").status == 405)
    }

    /// A dropped session's apps let their sockets go (the fake serves every session itself).
    @Test func droppingASessionEndsItsSockets() throws {
        let harness = harness
        harness.send(.get, "/__session/s1/live/anything")
        #expect(app.realtimeConnections.count == 2)
        #expect(harness.send(.delete, "/__mockstack/sessions/s1").status == 204)
        #expect(app.realtimeConnections.isEmpty)
    }

    @Test func eventsArePushedToTheirAudience() throws {
        let harness = harness
        #expect(harness.json(.post, "/__mockstack/events", ["app": "live", "event": "news", "arguments": ["hi", 1]]) == ["sent": 2])
        #expect(harness.json(.post, "/__mockstack/events", ["app": "live", "event": "solo", "arguments": "one", "to": "anonymous"]) == ["sent": 1])
        #expect(app.pushed.withLock { $0 } == [#"news ["hi",1] all"#, #"solo ["one"] anonymous"#])
    }

    @Test func badEventsAreRefusedNamingTheField() throws {
        let harness = harness
        func message(_ body: JSONValue) -> JSONValue? { harness.json(.post, "/__mockstack/events", body)["message"] }
        #expect(message(["event": "x"]) == "'app' must name an app with sockets (live)")
        #expect(message(["app": "test", "event": "x"]) == "No app with sockets named 'test' (apps with sockets: live)")
        #expect(message(["app": "live"]) == "'event' must be the event's name, a non-empty string")
        #expect(message(["app": "live", "event": "x", "to": "everyone"]) == "'to' must be one of: all, authenticated, anonymous")
        #expect(message(["app": "live", "event": "x", "data": 1]) == "Unknown key 'data' (keys: app, event, arguments, to)")
        #expect(harness.send(.post, "/__mockstack/events", json: ["app": "test", "event": "x"]).status == 404)
        #expect(harness.send(.get, "/__mockstack/events").status == 405)
    }

    @Test func socketActivityIsJournaledAndFiltered() throws {
        let harness = harness
        app.report(RealtimeActivity(kind: .connected, connection: "a1", name: "Socket.IO 5"))
        app.report(RealtimeActivity(kind: .call, connection: "a1", name: "people.find", data: ["people", [:]], answer: [.null, []]))
        app.report(RealtimeActivity(kind: .event, connection: nil, name: "people created", data: [["id": 1]], recipients: 2))
        let calls = harness.json(.get, "/__mockstack/sockets/activity?kind=call")["activity"]?.arrayValue ?? []
        #expect(calls.count == 1)
        #expect(calls.first?["name"] == "people.find")
        #expect(calls.first?["connection"] == "a1")
        #expect(calls.first?["app"] == "live")
        #expect(calls.first?["answer"] == [.null, []])
        #expect(calls.first?["session"] == .null)
        let event = harness.json(.get, "/__mockstack/sockets/activity?name=people%20created")["activity"]?.arrayValue?.first
        #expect(event?["recipients"] == 2)
        #expect(event?["connection"] == .null)
        #expect(harness.json(.get, "/__mockstack/sockets/activity?limit=1")["activity"]?.arrayValue?.map { $0["kind"] } == ["event"])
        #expect(harness.json(.get, "/__mockstack/sockets/activity?since=2")["activity"]?.arrayValue?.count == 1)
        #expect(harness.json(.get, "/__mockstack/sockets/activity?kind=poke")["message"] == "kind must be one of: connected, call, event, disconnected")
        #expect(harness.json(.get, "/__mockstack/sockets/activity?limit=-1")["message"] == "limit must be a whole number, 0 or more")
        // Reset empties it, with the rest of the journal.
        harness.send(.post, "/__mockstack/reset")
        #expect(harness.json(.get, "/__mockstack/sockets/activity") == ["activity": []])
    }

    @Test func eventsCanBeHeldBack() throws {
        let harness = harness
        #expect(harness.json(.put, "/__mockstack/events/delay", ["app": "live", "ms": 250]) == ["app": "live", "eventDelayMs": 250])
        #expect(app.eventDelayMilliseconds == 250)
        #expect(harness.json(.put, "/__mockstack/events/delay", ["app": "live", "ms": 60_001])["message"]
            == "'ms' must be a whole number of milliseconds from 0 to 60000")
        #expect(harness.json(.put, "/__mockstack/events/delay", ["app": "live", "ms": -1])["message"]
            == "'ms' must be a whole number of milliseconds from 0 to 60000")
    }

    @Test func largeSocketValuesAreCutToTheBodyLimitAndMarked() throws {
        let harness = harness
        let query: JSONValue = ["q": .string(String(repeating: "y", count: 20_000))]
        app.report(RealtimeActivity(kind: .call, connection: "a1", name: String(repeating: "n", count: 5_000),
                                    data: ["people", query], answer: [.null, []]))
        let entry = try #require(harness.json(.get, "/__mockstack/sockets/activity")["activity"]?.arrayValue?.first)
        let data = try #require(entry["data"]?.stringValue)
        #expect(data == #"["people",{"q":""# + String(repeating: "y", count: 16 * 1024 - 16))
        #expect(entry["dataTruncated"] == true)
        #expect(entry["dataSize"] == .number(JSONNumber(20_019)))
        #expect(entry["name"] == .string(String(repeating: "n", count: 2_048)))
        #expect(entry["nameTruncated"] == true)
        // What fits is kept as it was, unmarked.
        #expect(entry["answer"] == [.null, []])
        #expect(entry["answerTruncated"] == nil)
        #expect(entry["answerSize"] == nil)
    }

    /// A tree of many small values weighs far more than its text: it is kept as text, and read
    /// back whole.
    @Test func aHeavyTreeWithShortTextIsKeptAsTextAndListedWhole() throws {
        let harness = harness
        let many: JSONValue = .array(Array(repeating: .array([]), count: 1_000))
        app.report(RealtimeActivity(kind: .event, connection: nil, name: "people created", data: many, recipients: 0))
        let entry = try #require(harness.json(.get, "/__mockstack/sockets/activity")["activity"]?.arrayValue?.first)
        #expect(entry["data"] == many)
        #expect(entry["dataTruncated"] == nil)
    }
}
