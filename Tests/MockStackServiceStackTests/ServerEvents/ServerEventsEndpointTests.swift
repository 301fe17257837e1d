import Foundation
import MockStackCore
import Testing

@testable import MockStackServiceStack

/// The test host's Server Events paths and services, called without sockets: each stream's
/// handler is started on a ``RecordingByteStream`` (docs/servicestack-server-events.md).
@Suite struct ServerEventsEndpointTests {
    let app = try! TestHost.load("test")

    /// Opens `/event-stream` with `query` and starts its handler, as the transport would.
    func connect(_ query: String = "") throws -> (id: String, stream: RecordingByteStream) {
        let response = TestHost.call(.get, "/event-stream" + query, headers: ["Host": "127.0.0.1:9"], app: app)
        guard case .streamed(let body) = response.delivery else {
            Issue.record("not a stream: \(response)")
            throw CancellationError()
        }
        let stream = RecordingByteStream()
        let handler = body.makeHandler()
        handler.started(on: stream)
        stream.serve(handler)
        let connect = try #require(stream.events.first)
        let arguments = try #require(
            try JSONSerialization.jsonObject(with: Data(connect.data.dropFirst(14).utf8)) as? [String: String])
        return (try #require(arguments["id"]), stream)
    }

    @Test func theStreamAnswersWithTheHostsHeadersAndTheChannelsAsked() throws {
        let response = TestHost.call(.get, "/event-stream?channel=A&channels=B,C", headers: ["Host": "h:1"], app: app)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["X-Accel-Buffering"] == "no")
        #expect(response.operation == "ServerEventsStream")
        let (_, stream) = try connect("?channel=A&channels=B,C")
        #expect(stream.selectors == ["cmd.onConnect", "A@cmd.onJoin", "B@cmd.onJoin", "C@cmd.onJoin"])
        #expect(stream.events[0].data.contains(#""heartbeatUrl":"http://127.0.0.1:9/event-heartbeat?id="#))
    }

    @Test func withoutChannelsTheStreamJoinsStar() throws {
        #expect(try connect().stream.selectors == ["cmd.onConnect", "*@cmd.onJoin"])
    }

    @Test func aChannelWithAnAtIsRefusedInTheHostsErrorFormat() {
        let response = TestHost.call(.get, "/event-stream?channels=a@b", app: app)
        #expect(response.status == 400)
        #expect(response.text.contains(#""errorCode":"ArgumentException""#))
    }

    @Test func aSignedInStreamIsThatUser() throws {
        let signIn = TestHost.call(
            .post, "/api/Authenticate", json: #"{"provider":"credentials","userName":"test","password":"test"}"#,
            app: app)
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(signIn.body)) as? [String: Any])?["bearerToken"] as? String)
        let (_, stream) = try connect("?ss-tok=\(token)")
        #expect(stream.events[0].data.contains(#""userId":"1""#))
        #expect(stream.events[0].data.contains(#""isAuthenticated":"true","displayName":"test""#))
        let (_, anonymous) = try connect("?ss-tok=not.a.token")
        #expect(anonymous.events[0].data.contains(#""isAuthenticated":"false","displayName":"user2""#))
    }

    @Test func heartbeatsAnswerEmptyOr404WithTheReasonPhrase() throws {
        let (id, stream) = try connect()
        let pulse = TestHost.call(.post, "/event-heartbeat?id=\(id)", app: app)
        #expect(pulse.status == 200)
        #expect(pulse.body.isEmpty)
        #expect(stream.selectors.last == "cmd.onHeartbeat")
        let unknown = TestHost.call(.post, "/event-heartbeat?id=no-such'id", app: app)
        #expect(unknown.status == 404)
        #expect(unknown.reasonPhrase == "Subscription 'nosuchid' does not exist")
        #expect(unknown.body.isEmpty)
    }

    @Test func unregisterAnswersTheMetaAndEndsTheStream() throws {
        let (id, stream) = try connect()
        let response = TestHost.call(.post, "/event-unregister?id=\(id)", app: app)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.text.hasPrefix(#"{"channels":"*","userId":"-1","profileUrl":"data:image/svg+xml,"#))
        #expect(stream.ending == .closed)
        let again = TestHost.call(.post, "/event-unregister?id=\(id)", app: app)
        #expect(again.status == 404)
        #expect(
            again.text.hasPrefix(
                #"{"responseStatus":{"errorCode":"NotFound","message":"Subscription \#(id) does not exist""#))
    }

    @Test func subscribersAreListedOnEitherRoute() throws {
        _ = try connect("?channels=A")
        _ = try connect("?channels=A,B")
        _ = try connect("?channels=C")
        func count(_ target: String) throws -> Int {
            let response = TestHost.call(.get, target, app: app)
            #expect(response.status == 200)
            return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: String]])
                .count
        }
        #expect(try count("/event-subscribers?channels=A") == 2)
        #expect(try count("/api/GetEventSubscribers?channels=A%2CB") == 2)
        #expect(try count("/json/reply/GetEventSubscribers?channel=C") == 1)
        #expect(try count("/event-subscribers") == 3)
    }

    @Test func aSubscriptionIsUpdatedByPathOrByTheApiRoute() throws {
        let (id, stream) = try connect("?channels=A")
        let byPath = TestHost.call(.post, "/event-subscribers/\(id)", json: #"{"subscribeChannels":["B"]}"#, app: app)
        #expect(byPath.status == 200)
        #expect(byPath.text == "{}")
        let byAPI = TestHost.call(
            .post, "/api/UpdateEventSubscriber", json: #"{"id":"\#(id)","unsubscribeChannels":["A"]}"#, app: app)
        #expect(byAPI.status == 200)
        #expect(stream.selectors.suffix(2) == ["B@cmd.onUpdate", "B@cmd.onUpdate"])
        let unknown = TestHost.call(.post, "/api/UpdateEventSubscriber", json: #"{"id":"nope"}"#, app: app)
        #expect(unknown.status == 404)
        #expect(unknown.text.contains(#""message":"Subscription nope does not exist""#))
    }

    @Test func aChatGoesToTheChannelAndIsAnswered() throws {
        let (id, stream) = try connect("?channels=home")
        let (_, other) = try connect("?channels=home")
        let response = TestHost.call(
            .post, "/channels/home/chat", json: #"{"from":"\#(id)","message":"<hi>","selector":"cmd.chat"}"#, app: app)
        #expect(response.status == 200)
        let json =
            #"{"id":1,"channel":"home","fromUserId":"-1","fromName":"user1","message":"&lt;hi&gt;","private":false}"#
        #expect(response.text == json)
        #expect(stream.events.last?.data == "home@cmd.chat " + json)
        #expect(other.events.last?.data == "home@cmd.chat " + json)
        let history = TestHost.call(.get, "/chathistory?channels=home", app: app)
        #expect(history.text == #"{"results":["# + json + "]}")
    }

    @Test func aPrivateChatGoesToTheUserAndEchoesToTheSender() throws {
        let (sender, senderStream) = try connect("?channels=home")
        let (_, receiver) = try connect("?channels=elsewhere")
        let response = TestHost.call(
            .post, "/channels/home/chat",
            json: #"{"from":"\#(sender)","toUserId":"-2","message":"psst","selector":"cmd.chat"}"#, app: app)
        #expect(response.status == 200)
        #expect(
            receiver.events.last?.data
                == #"cmd.chat {"id":1,"channel":"home","fromUserId":"-1","fromName":"user1","message":"psst","private":true}"#
        )
        #expect(senderStream.events.last?.data.contains(#""message":"@user2: psst""#) == true)
        #expect(TestHost.call(.get, "/chathistory?channels=home", app: app).text == #"{"results":[]}"#)
    }

    @Test func aChatFromAnUnknownSubscriptionIs404() {
        let response = TestHost.call(.post, "/channels/home/chat", json: #"{"from":"ghost","message":"x"}"#, app: app)
        #expect(response.status == 404)
        #expect(response.text.contains(#""message":"Subscription ghost does not exist""#))
    }

    @Test func rawAndObjectMessagesAreSentAsJSON() throws {
        let (id, stream) = try connect("?channels=home")
        let raw = TestHost.call(
            .post, "/channels/home/raw", json: #"{"from":"\#(id)","message":"msg1","selector":"cmd.announce"}"#,
            app: app)
        #expect(raw.status == 204)
        #expect(stream.events.last?.data == #"home@cmd.announce "msg1""#)
        _ = TestHost.call(
            .post, "/channels/home/raw", json: #"{"from":"\#(id)","selector":"cmd.toggle$#channels"}"#, app: app)
        #expect(stream.events.last?.data == "home@cmd.toggle$#channels ")
        let object = TestHost.call(
            .post, "/channels/home/object",
            json: #"{"customType":{"id":1,"name":"Foo"},"setterType":{"id":2,"name":"Bar"}}"#,
            app: app)
        #expect(object.status == 204)
        #expect(
            stream.events.suffix(2).map(\.data)
                == [#"home@cmd.CustomType {"id":1,"name":"Foo"}"#, #"home@cmd.SetterType {"id":2,"name":"Bar"}"#])
    }

    @Test func aMessageLargerThanTheLimitIsRefusedBeforeAnyoneGetsIt() throws {
        let (id, stream) = try connect("?channels=home")
        let before = stream.events.count
        let message = String(repeating: "x", count: 1 << 20)
        let response = TestHost.call(
            .post, "/channels/home/raw", json: #"{"from":"\#(id)","message":"\#(message)","selector":"cmd.x"}"#,
            app: app)
        #expect(response.status == 400)
        #expect(
            response.text.contains(
                #""message":"The message is 1048578 bytes; Server Events here send at most 1048576""#))
        #expect(stream.events.count == before)
    }

    @Test func resetServerEventsForgetsEverySubscription() throws {
        let (id, stream) = try connect()
        #expect(TestHost.call(.post, "/api/ResetServerEvents", app: app).status == 204)
        #expect(TestHost.call(.post, "/event-heartbeat?id=\(id)", app: app).status == 404)
        #expect(TestHost.call(.get, "/event-subscribers", app: app).text == "[]")
        #expect(stream.ending == nil)
    }

    @Test func clearChatHistoryRedirectsHome() {
        let response = TestHost.call(.get, "/reset", app: app)
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/")
    }

    @Test func theFeaturesRoutesAreListed() {
        let names = app.routes.map(\.name)
        for name in [
            "ServerEventsStream", "ServerEventsHeartbeat", "ServerEventsUnRegister", "GetEventSubscribers",
            "UpdateEventSubscriber",
        ] {
            #expect(names.contains(name))
        }
        #expect(
            app.operation(for: HTTPRequest(method: .post, target: "/api/GetEventSubscribers")) == "GetEventSubscribers")
        #expect(app.operation(for: HTTPRequest(method: .get, target: "/EVENT-STREAM")) == "ServerEventsStream")
    }

    @Test func aSessionHasSubscriptionsOfItsOwn() throws {
        _ = try connect()
        let session = app.makeSession() as! ServiceStackApp
        #expect(session.serverEventSubscribers(channel: nil).isEmpty)
        #expect(app.serverEventSubscribers(channel: nil).count == 1)
    }

    @Test func theControlPlaneSendsToAChannelASubscriptionOrAUser() throws {
        let (id, stream) = try connect("?channels=A")
        #expect(
            app.sendServerEvent(ServerEventMessage(selector: "cmd.news", body: "hi", target: .channel("A")))
                == .success(1))
        #expect(stream.events.last?.data == #"A@cmd.news "hi""#)
        #expect(
            app.sendServerEvent(ServerEventMessage(selector: "cmd.x", body: nil, target: .subscription("nope")))
                == .failure(.unknownSubscription("nope")))
        #expect(
            app.sendServerEvent(ServerEventMessage(selector: "cmd.x", body: nil, target: .user("-1"))) == .success(1))
        #expect(
            app.sendServerEvent(ServerEventMessage(selector: "a@b", body: nil, target: .everyone))
                == .failure(
                    .invalidName("The selector 'a@b' holds '@' or a line break, which Server Events cannot carry")))
        #expect(
            app.sendServerEvent(
                ServerEventMessage(
                    selector: "cmd.x", body: .string(String(repeating: "x", count: 1 << 20)), target: .subscription(id))
            )
                == .failure(.tooLarge((1 << 20) + 2 + 5, limit: 1 << 20)))
        #expect(app.realtimeConnections.map(\.transport) == ["event-stream"])
    }

    @Test func appsWithoutTheFeatureKeepNoConnections() throws {
        let ai = try TestHost.load("ai")
        #expect(!ai.keepsRealtimeConnections)
        #expect(TestHost.call(.get, "/event-stream", app: ai).status == 404)
    }
}
