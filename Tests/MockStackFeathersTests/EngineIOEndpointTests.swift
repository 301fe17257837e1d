import Foundation
import MockStackCore
import MockStackFeathers
import MockStackSocketIO
import Synchronization
import Testing

/// The Engine.IO endpoint of a Feathers app, driven with requests as values: no sockets, and a
/// clock the test moves by hand.
@Suite struct EngineIOEndpointTests {
    /// Timers that run only when the test says so.
    final class ManualClock: RealtimeClock {
        private struct Entry {
            let milliseconds: Int
            let action: @Sendable () -> Void
            var cancelled = false
        }
        private let entries = Mutex<[Int: Entry]>([:])
        private let next = Atomic(0)

        func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) -> RealtimeTimer {
            let id = next.add(1, ordering: .relaxed).newValue
            entries.withLock { $0[id] = Entry(milliseconds: milliseconds, action: action) }
            return RealtimeTimer { [self] in _ = entries.withLock { $0.removeValue(forKey: id) } }
        }

        /// Runs (once) every timer set for `milliseconds` and not cancelled.
        func fire(_ milliseconds: Int) {
            let due = entries.withLock { entries in
                let ids = entries.filter { $0.value.milliseconds == milliseconds }.keys.sorted()
                return ids.compactMap { entries.removeValue(forKey: $0)?.action }
            }
            for action in due { action() }
        }

        var pending: [Int] { entries.withLock { $0.values.map(\.milliseconds).sorted() } }
    }

    /// What a held poll was finally answered with.
    final class HeldPoll: Sendable {
        let answers = Mutex<[String]>([])

        init(_ response: HTTPResponse) throws {
            guard case .deferred(let answer) = response.delivery else {
                Issue.record("not held: \(response.debugDescription)")
                return
            }
            guard case .waiting = answer.attach({ [self] response in self.answers.withLock { $0.append(String(decoding: response.body, as: UTF8.self)) } }) else {
                Issue.record("answered already")
                return
            }
        }

        var answer: String? { answers.withLock { $0.first } }
    }

    let clock = ManualClock()

    func makeApp(_ dialect: FeathersDialect = .v5) -> FeathersApp {
        let template = SocketConnectionTests.makeApp(dialect)
        return FeathersApp(name: template.name, mount: template.mount, dialect: dialect, services: template.services,
                           authentication: template.authentication, clock: { Date(timeIntervalSince1970: 1_800_000_000) },
                           realtime: EngineIOEndpoint(clock: clock))
    }

    func get(_ app: FeathersApp, _ query: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        app.respond(to: HTTPRequest(method: .get, target: "/socket.io/?" + query, headers: headers, mountPath: "/feathers"))
    }

    func post(_ app: FeathersApp, _ query: String, _ body: String) -> HTTPResponse {
        app.respond(to: HTTPRequest(method: .post, target: "/socket.io/?" + query, headers: ["Content-Type": "text/plain;charset=UTF-8"],
                                    body: Array(body.utf8), mountPath: "/feathers"))
    }

    /// A polling session's id, from its handshake.
    func handshake(_ app: FeathersApp, _ query: String = "EIO=4&transport=polling&t=abc") throws -> String {
        let response = get(app, query)
        #expect(response.status == 200)
        let body = String(decoding: response.body, as: UTF8.self)
        let json = body.drop { $0 != "{" }
        return try #require(JSONParser().parse(String(json)).root["sid"]?.stringValue)
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func theHandshakeAnswersTheOpenPacketAndStartsTheHeartbeat() throws {
        let app = makeApp()
        let response = get(app, "EIO=4&transport=polling&t=N8hyd6w")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; charset=UTF-8")
        let body = Self.text(response)
        let sid = try #require(try JSONParser().parse(String(body.dropFirst())).root["sid"]?.stringValue)
        #expect(sid.utf8.count == 20)
        #expect(body == #"0{"sid":"\#(sid)","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#)
        #expect(clock.pending == [25000])
        #expect(app.realtime.sessionCount == 1)
    }

    @Test func refusalsAreEngineIOsJSON() throws {
        let app = makeApp()
        #expect(Self.text(get(app, "EIO=3&transport=polling")) == #"{"code":5,"message":"Unsupported protocol version"}"#)
        #expect(Self.text(get(app, "transport=polling")) == #"{"code":5,"message":"Unsupported protocol version"}"#)
        #expect(Self.text(get(app, "EIO=4&transport=carrier-pigeon")) == #"{"code":0,"message":"Transport unknown"}"#)
        #expect(Self.text(get(app, "EIO=4&transport=polling&sid=made-up")) == #"{"code":1,"message":"Session ID unknown"}"#)
        #expect(Self.text(post(app, "EIO=4&transport=polling", "40")) == #"{"code":2,"message":"Bad handshake method"}"#)
        #expect(Self.text(get(app, "EIO=4&transport=websocket")) == #"{"code":3,"message":"Bad request"}"#)
        for query in ["EIO=3&transport=polling", "EIO=4&transport=carrier-pigeon", "EIO=4&transport=polling&sid=made-up", "EIO=4&transport=websocket"] {
            let refused = get(app, query)
            #expect(refused.status == 400, "\(query)")
            #expect(refused.headers["Content-Type"] == MediaType.json, "\(query)")
        }
        // Only paths under socket.io/ are Engine.IO's.
        #expect(app.respond(to: HTTPRequest(method: .get, target: "/socket.io?EIO=4&transport=polling", mountPath: "/feathers")).status == 404)
    }

    @Test func aClientConnectsCallsAndHearsItsAcknowledgement() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        let posted = post(app, session, "40")
        #expect(posted.status == 200)
        #expect(Self.text(posted) == "ok")
        #expect(posted.headers["Content-Type"] == "text/html")
        let connected = Self.text(get(app, session))
        #expect(connected.hasPrefix(#"40{"sid":""#))
        #expect(Self.text(post(app, session, "421[\"get\",\"people\",0]\u{1E}422[\"get\",\"people\",9]")) == "ok")
        #expect(Self.text(get(app, session))
            == #"431[null,{"id":0,"name":"Ada","age":36}]"# + "\u{1E}" + #"432[{"name":"NotFound","message":"No record found for id '9'","code":404,"className":"not-found"}]"#)
    }

    @Test func aPollWithNothingToSayIsHeldUntilThereIs() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        _ = post(app, session, "40")
        _ = get(app, session)
        let held = try HeldPoll(get(app, session))
        #expect(held.answer == nil)
        _ = post(app, session, "423[\"find\",\"people\",{\"age\":{\"$gt\":40}}]")
        #expect(held.answer == "433[null,[]]")
    }

    @Test func theServerPingsAndAMissingPongEndsTheSession() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        let held = try HeldPoll(get(app, session))
        clock.fire(25000)
        #expect(held.answer == "2")
        #expect(clock.pending == [20000])
        _ = post(app, session, "3")
        #expect(clock.pending == [25000])
        clock.fire(25000)
        clock.fire(20000)
        #expect(app.realtime.sessionCount == 0)
        #expect(Self.text(get(app, session)) == #"{"code":1,"message":"Session ID unknown"}"#)
    }

    @Test func overlappingPollsEndTheSession() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        let held = try HeldPoll(get(app, session))
        let second = get(app, session)
        #expect(second.status == 400)
        #expect(second.body.isEmpty)
        #expect(held.answer == "1")
        #expect(app.realtime.sessionCount == 0)
    }

    @Test func eventsFromRESTReachASignedInPollingClient() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        _ = post(app, session, "40")
        _ = post(app, session, "42" + SocketConnectionTests.signIn.dropFirst())
        let answers = Self.text(get(app, session))
        #expect(answers.contains("\u{1E}430[null,{\"accessToken\":"))
        let held = try HeldPoll(get(app, session))
        let created = app.respond(to: HTTPRequest(method: .post, target: "/people", headers: ["Content-Type": "application/json"],
                                                  body: Array(#"{"name":"Cy"}"#.utf8), mountPath: "/feathers"))
        #expect(created.status == 201)
        #expect(held.answer == #"42["people created",{"name":"Cy","id":1}]"#)
    }

    @Test func aV4AppSpeaksRevision3AndJoinsAtOnce() throws {
        let app = makeApp(.v4)
        // Socket.IO-Client-Swift up to 15 sends no EIO at all.
        let response = get(app, "transport=polling&b64=1")
        let body = Self.text(response)
        let sid = try #require(try JSONParser().parse(String(body.drop { $0 != "{" })).root["sid"]?.stringValue)
        #expect(body == #"97:0{"sid":"\#(sid)","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000}"#)
        // The client pings in revision 3; the server waits pingInterval + pingTimeout.
        #expect(clock.pending == [45000])
        let session = "transport=polling&b64=1&sid=" + sid
        #expect(Self.text(get(app, session)) == "2:40")
        _ = post(app, session, "1:2")
        #expect(Self.text(get(app, session)) == "1:3")
    }

    @Test func resetEndsEverySession() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        let held = try HeldPoll(get(app, session))
        app.reset()
        #expect(held.answer == "1")
        #expect(app.realtime.sessionCount == 0)
    }

    @Test func aDroppedPollEndsTheSession() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let response = get(app, "EIO=4&transport=polling&sid=" + sid)
        guard case .deferred(let answer) = response.delivery else {
            Issue.record("not held")
            return
        }
        _ = answer.attach { _ in }
        #expect(answer.end(.dropped))
        #expect(app.realtime.sessionCount == 0)
    }
}

/// What the control plane does with a Feathers app's sockets, as values.
extension EngineIOEndpointTests {
    /// A session joined to the main namespace; its poll cleared.
    func joined(_ app: FeathersApp, signIn: Bool = false) throws -> String {
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        _ = post(app, session, "40")
        if signIn { _ = post(app, session, "42" + SocketConnectionTests.signIn.dropFirst()) }
        _ = get(app, session)
        return session
    }

    @Test func connectionsAreListedAndCanBeDropped() throws {
        let app = makeApp()
        let first = try joined(app, signIn: true)
        _ = try joined(app)
        let connections = app.realtimeConnections
        #expect(connections.map(\.transport) == ["polling", "polling"])
        #expect(connections.map(\.signedIn) == [true, false])
        #expect(connections.map(\.channels) == [["authenticated"], ["anonymous"]])
        #expect(connections.first?.protocolName == "Engine.IO 4, Socket.IO 5")
        #expect(app.disconnect(connections[0].id))
        #expect(!app.disconnect("no-such-socket"))
        // Gone from the list at once, though its client hears the close only on its next poll.
        #expect(app.realtimeConnections.map(\.id) == [connections[1].id])
        #expect(app.push(event: "after", arguments: [], to: .all) == 1)
        // The dropped session hears close on its next poll, then is gone.
        #expect(Self.text(get(app, first)) == "1")
        #expect(app.realtimeConnections.map(\.id) == [connections[1].id])
    }

    @Test func pushedEventsReachTheirAudience() throws {
        let app = makeApp()
        let member = try joined(app, signIn: true)
        let guest = try joined(app)
        #expect(app.push(event: "announcement", arguments: ["hello"], to: .authenticated) == 1)
        #expect(app.push(event: "to everyone", arguments: [1, 2], to: .all) == 2)
        #expect(app.push(event: "guests", arguments: [], to: .anonymous) == 1)
        #expect(Self.text(get(app, member)) == "42[\"announcement\",\"hello\"]\u{1E}42[\"to everyone\",1,2]")
        #expect(Self.text(get(app, guest)) == "42[\"to everyone\",1,2]\u{1E}42[\"guests\"]")
    }

    @Test func delayedEventsKeepTheirOrderAndAcknowledgementsAreNotHeld() throws {
        let app = makeApp()
        let member = try joined(app, signIn: true)
        app.delayEvents(byMilliseconds: 300)
        _ = app.push(event: "first", arguments: [], to: .all)
        _ = app.push(event: "second", arguments: [], to: .all)
        _ = post(app, member, "425[\"get\",\"people\",0]")
        #expect(Self.text(get(app, member)) == #"435[null,{"id":0,"name":"Ada","age":36}]"#)
        #expect(clock.pending.filter { $0 == 300 }.count == 2)
        clock.fire(300)
        #expect(Self.text(get(app, member)) == "42[\"first\"]\u{1E}42[\"second\"]")
        app.reset()
        #expect(app.eventDelayMilliseconds == 0)
    }

    @Test func aClientsNamespaceDisconnectIsReported() throws {
        let app = makeApp()
        let seen = Mutex<[String]>([])
        app.observeActivity { activity in seen.withLock { $0.append("\(activity.kind.rawValue) \(activity.name)") } }
        let session = try joined(app)
        _ = post(app, session, "41\u{1E}1")
        #expect(seen.withLock { $0 } == ["connected Socket.IO 5", "disconnected client namespace disconnect"])
        #expect(app.realtime.sessionCount == 0)
    }

    @Test func activityIsReportedForTheJournal() throws {
        let app = makeApp()
        let seen = Mutex<[RealtimeActivity]>([])
        app.observeActivity { activity in seen.withLock { $0.append(activity) } }
        let session = try joined(app, signIn: true)
        _ = post(app, session, "421[\"frobnicate\",\"people\"]\u{1E}422[\"create\",\"people\",{\"name\":\"Eve\"}]")
        _ = app.push(event: "news", arguments: ["x"], to: .all)
        _ = app.disconnect(app.realtimeConnections[0].id)
        _ = get(app, session)
        let activity = seen.withLock { $0 }
        #expect(activity.map(\.kind) == [.connected, .call, .call, .event, .call, .event, .disconnected])
        #expect(activity.map(\.name) == ["Socket.IO 5", "authentication.create", "people.frobnicate", "people created", "people.create", "news",
                                         "forced close"])
        #expect(activity[2].answer == nil)
        #expect(activity[3].recipients == 1)
        #expect(activity[4].answer == [.null, ["name": "Eve", "id": 1]])
    }
}

/// The protocol's refusals one by one, at the endpoint.
extension EngineIOEndpointTests {
    @Test func aWebSocketNamingAnUnknownSessionGetsEngineIOsBareText() throws {
        let app = makeApp()
        let response = get(app, "EIO=4&transport=websocket&sid=made-up",
                           headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                                     "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="])
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"] == "text/html")
        #expect(Self.text(response) == "Session ID unknown")
    }

    @Test func anotherMethodOnAnOpenSessionIs500() throws {
        let app = makeApp()
        let sid = try handshake(app)
        let put = app.respond(to: HTTPRequest(method: .put, target: "/socket.io/?EIO=4&transport=polling&sid=" + sid, mountPath: "/feathers"))
        #expect(put.status == 500)
        #expect(put.body.isEmpty)
    }

    @Test func acknowledgementsNobodyAskedForAreIgnoredAndBinaryPacketsClose() throws {
        let app = makeApp()
        let session = try joined(app)
        #expect(Self.text(post(app, session, "431[null,1]")) == "ok")
        #expect(app.realtime.sessionCount == 1)
        _ = post(app, session, #"451-["upload",{"_placeholder":true,"num":0}]"#)
        #expect(Self.text(get(app, session)) == "1")
        #expect(app.realtime.sessionCount == 0)
    }

    @Test func aPostOverMaxPayloadIs413AndTheSessionGoesOn() throws {
        let app = FeathersApp(name: "feathers", mount: "/feathers", dialect: .v5, services: SocketConnectionTests.makeApp().services,
                              authentication: nil, realtime: EngineIOEndpoint(settings: { var s = EngineIOSettings(); s.maxPayload = 16; return s }(), clock: clock))
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        #expect(post(app, session, "42[\"find\",\"people\",{}]").status == 413)
        #expect(post(app, session, "40").status == 200)
    }

    func makeApp(settings: EngineIOSettings) -> FeathersApp {
        FeathersApp(name: "feathers", mount: "/feathers", dialect: .v5, services: SocketConnectionTests.makeApp().services,
                    authentication: nil, realtime: EngineIOEndpoint(settings: settings, clock: clock))
    }

    @Test func aClientThatStopsPollingLosesItsSessionPastTheOutboxBoundAndItsLaterCallsAreNotRun() throws {
        var settings = EngineIOSettings()
        settings.maxOutboxBytes = 4_000
        let app = makeApp(settings: settings)
        let calls = Mutex(0)
        app.observeActivity { activity in if activity.kind == .call { calls.withLock { $0 += 1 } } }
        let record = #"{"name":"\#(String(repeating: "x", count: 1_000))"}"#
        #expect(app.respond(to: HTTPRequest(method: .post, target: "/people", headers: ["Content-Type": "application/json"],
                                            body: Array(record.utf8), mountPath: "/feathers")).status == 201)
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        // Each answer weighs over 1,000 bytes: the fourth cannot wait beside three others.
        let finds = (1...50).map { #"42\#($0)["find","people"]"# }
        let posted = post(app, session, (["40"] + finds).joined(separator: "\u{1E}"))
        #expect(posted.status == 200)
        #expect(Self.text(posted) == "ok")
        #expect(app.realtime.sessionCount == 0)
        #expect(calls.withLock { $0 } == 4)
        let next = get(app, session)
        #expect(next.status == 400)
        #expect(Self.text(next) == #"{"code":1,"message":"Session ID unknown"}"#)
    }

    @Test func aPostOfMorePacketsThanTheBoundIs413AndNoneOfThemRuns() throws {
        var settings = EngineIOSettings()
        settings.maxPacketsPerPayload = 2
        let app = makeApp(settings: settings)
        let sid = try handshake(app)
        let session = "EIO=4&transport=polling&sid=" + sid
        let refused = post(app, session, "40\u{1E}421[\"find\",\"people\"]\u{1E}422[\"find\",\"people\"]")
        #expect(refused.status == 413)
        #expect(refused.body.isEmpty)
        #expect(post(app, session, "40\u{1E}421[\"find\",\"people\"]").status == 200)
        #expect(Self.text(get(app, session)).hasSuffix("\u{1E}" + #"431[null,[{"id":0,"name":"Ada","age":36}]]"#))
    }

    @Test func handshakesPastTheSessionCapAreRefusedAsAllowRequestRefusesThem() throws {
        var settings = EngineIOSettings()
        settings.maxSessions = 2
        let app = makeApp(settings: settings)
        let first = try handshake(app)
        // A mockstack session's copy of the app shares its budget.
        let copy = try #require(app.makeSession() as? FeathersApp)
        _ = try handshake(copy)
        for refused in [get(app, "EIO=4&transport=polling"), get(copy, "EIO=4&transport=polling")] {
            #expect(refused.status == 403)
            #expect(refused.headers["Content-Type"] == MediaType.json)
            #expect(Self.text(refused) == #"{"code":4,"message":"Too many Engine.IO sessions: at most 2 may be open at once"}"#)
        }
        let webSocket = get(app, "EIO=4&transport=websocket", headers: ["Upgrade": "websocket", "Connection": "Upgrade",
                                                                        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="])
        #expect(webSocket.status == 400)
        #expect(webSocket.headers["Content-Type"] == "text/html")
        #expect(Self.text(webSocket) == "Too many Engine.IO sessions: at most 2 may be open at once")
        #expect(app.realtime.sessionCount == 1)
        // A session that ends makes room.
        #expect(post(app, "EIO=4&transport=polling&sid=" + first, "1").status == 200)
        _ = try handshake(app)
        #expect(get(app, "EIO=4&transport=polling").status == 403)
    }
}
