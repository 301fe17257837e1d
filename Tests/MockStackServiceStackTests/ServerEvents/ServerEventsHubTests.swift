import MockStackCore
import Testing

@testable import MockStackServiceStack

/// The hub as a plain value: subscriptions, their frames and their lifetimes, without sockets
/// (docs/servicestack-server-events.md).
@Suite struct ServerEventsHubTests {
    let clock = ManualClock()
    let hub: ServerEventsHub

    init() {
        var settings = ServerEventsSettings()
        settings.maxSubscriptions = 3
        hub = ServerEventsHub(settings: settings, budget: SubscriptionBudget(limit: 3), clock: clock.serverEventsClock)
    }

    /// A subscription on a stream whose client reads all it is sent (unless `stream` says not).
    @discardableResult
    func subscribe(_ channels: [String], stream: RecordingByteStream = RecordingByteStream()) -> Subscribed {
        let subscription = hub.subscribe(channels: channels, baseURL: "http://127.0.0.1:9/test", stream: stream) {
            .anonymous(number: $0)
        }
        stream.serve(subscription)
        return (subscription.id, stream)
    }

    typealias Subscribed = (id: String, stream: RecordingByteStream)

    @Test func theFirstFrameIsOnConnectWithTheSubscriptionsAddresses() throws {
        let (id, stream) = subscribe(["home"])
        #expect(
            id.utf8.count == 20
                && id.utf8.allSatisfy {
                    $0 < 128 && Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber
                })
        let meta =
            #""channels":"home","userId":"-1","profileUrl":"\#(SubscriberIdentity.defaultProfileUrl)","#
            + #""createdAt":"1764000000000","isAuthenticated":"false","displayName":"user1""#
        #expect(
            stream.text == """
                id: 1
                data: cmd.onConnect {\(meta),"id":"\(id)","unRegisterUrl":"http://127.0.0.1:9/test/event-unregister?id=\(id)",\
                "heartbeatUrl":"http://127.0.0.1:9/test/event-heartbeat?id=\(id)",\
                "updateSubscriberUrl":"http://127.0.0.1:9/test/event-subscribers/\(id)","heartbeatIntervalMs":"10000",\
                "idleTimeoutMs":"30000"}

                id: 2
                data: home@cmd.onJoin {\(meta)}


                """)
    }

    @Test func joinsGoToEveryoneInTheChannelTheJoinerIncludedInChannelOrder() {
        let first = subscribe(["A"]).stream
        let second = subscribe(["A", "B", "C"]).stream
        #expect(first.selectors == ["cmd.onConnect", "A@cmd.onJoin", "A@cmd.onJoin"])
        #expect(second.selectors == ["cmd.onConnect", "A@cmd.onJoin", "B@cmd.onJoin", "C@cmd.onJoin"])
        #expect(second.events.map(\.id) == [1, 2, 3, 4])
        #expect(first.events[2].data.contains(#""displayName":"user2""#))
    }

    @Test func unregisteringEndsTheStreamAndTellsTheOthersButNotTheLeaver() throws {
        let (leaverID, leaver) = subscribe(["A", "B"])
        let stayer = subscribe(["B"]).stream
        let gone = try #require(hub.unregister(leaverID))
        #expect(gone.id == leaverID)
        #expect(leaver.ending == .closed)
        #expect(!leaver.selectors.contains { $0.hasSuffix("onLeave") })
        #expect(stayer.selectors == ["cmd.onConnect", "B@cmd.onJoin", "B@cmd.onLeave"])
        #expect(hub.unregister(leaverID) == nil)
        #expect(!hub.heartbeat(leaverID))
    }

    @Test func aStreamThatEndsLeavesLikeAnUnregister() {
        let (id, _) = subscribe(["A"])
        let other = subscribe(["A"]).stream
        hub.streamEnded(id)
        #expect(other.selectors.last == "A@cmd.onLeave")
        #expect(hub.subscribers(channels: []).count == 1)
        #expect(hub.budget.count == 1)
    }

    @Test func aHeartbeatPulsesAndAnswersTheSubscriberAlone() {
        let (id, stream) = subscribe(["A"])
        let other = subscribe(["A"]).stream
        #expect(hub.heartbeat(id))
        #expect(stream.selectors.last == "cmd.onHeartbeat")
        #expect(other.selectors.last == "A@cmd.onJoin")
        #expect(!hub.heartbeat("nosuchsubscription00"))
    }

    @Test func updatesUnsubscribeFirstThenAppendNewChannelsOnce() throws {
        let (id, stream) = subscribe(["A", "B"])
        let watcher = subscribe(["C"]).stream
        #expect(hub.update(id, subscribe: ["C", "A"], unsubscribe: ["B"]))
        let subscription = try #require(hub.subscription(id))
        #expect(subscription.channels == ["A", "C"])
        // Each step tells the subscribers now in each channel of old ∪ new, once each: it is no
        // longer in B when B hears of the first, and is in C when C hears of the second.
        #expect(stream.selectors.suffix(4) == ["B@cmd.onJoin", "A@cmd.onUpdate", "A@cmd.onUpdate", "C@cmd.onUpdate"])
        #expect(watcher.selectors.last == "C@cmd.onUpdate")
        #expect(hub.subscribers(channels: ["C"]).map(\.id).first == id)
        #expect(!hub.update("nosuchsubscription00", subscribe: ["A"], unsubscribe: []))
    }

    @Test func subscribersAreListedChannelByChannelEachOnce() {
        let a = subscribe(["A"]).id
        let ab = subscribe(["A", "B"]).id
        let b = subscribe(["B"]).id
        #expect(hub.subscribers(channels: ["B", "A"]).map(\.id) == [ab, b, a])
        #expect(hub.subscribers(channels: []).map(\.id) == [a, ab, b])
        #expect(hub.subscribers(channels: ["Z"]).isEmpty)
    }

    @Test func aSubscriptionIdlePastTheTimeoutExpiresWithALeave() {
        let (_, stream) = subscribe(["A"])
        let (otherID, other) = subscribe(["A"])
        #expect(stream.scheduledDelays == [30_000])
        clock.advance(by: 20_000)
        #expect(hub.heartbeat(otherID))
        clock.advance(by: 10_000)
        stream.runScheduled()
        other.runScheduled()
        #expect(stream.ending == .closed)
        #expect(other.ending == nil)
        #expect(other.selectors.last == "A@cmd.onLeave")
        // The heartbeat pushed the other's check on by what was left of its timeout.
        #expect(other.scheduledDelays == [20_000])
    }

    @Test func expiryChecksAreDueOnWholeSecondsSoTheyShareWakeUps() {
        clock.advance(by: 300)
        let (_, stream) = subscribe(["A"])
        // Due at 30,300 ms: checked at 31,000.
        #expect(stream.scheduledDelays == [30_700])
        clock.advance(by: 30_699)
        stream.runScheduled()
        #expect(stream.ending == .closed)
    }

    @Test func expiryCheckDelayRoundsUpToASecondOrTheHouseKeepingInterval() {
        var settings = ServerEventsSettings()
        #expect(settings.expiryCheckDelay(30_000, now: 0) == 30_000)
        #expect(settings.expiryCheckDelay(30_000, now: 1) == 30_999)
        #expect(settings.expiryCheckDelay(20_000, now: 30_000) == 20_000)
        #expect(settings.expiryCheckDelay(29_500, now: 12_345) == 29_655)
        settings.houseKeepingIntervalMilliseconds = 50
        #expect(settings.expiryCheckDelay(300, now: 10) == 340)
        #expect(settings.expiryCheckDelay(300, now: 50) == 300)
    }

    @Test func resetServerEventsForgetsSubscriptionsButKeepsStreamsAndCounting() {
        let (id, stream) = subscribe(["A"])
        hub.forgetAll()
        #expect(!hub.heartbeat(id))
        #expect(hub.subscribers(channels: []).isEmpty)
        #expect(stream.ending == nil)
        let next = subscribe(["A"]).stream
        #expect(next.events[0].data.contains(#""displayName":"user2""#))
        #expect(stream.selectors == ["cmd.onConnect", "A@cmd.onJoin"])
        // A forgotten stream still expires.
        clock.advance(by: 30_000)
        stream.runScheduled()
        #expect(stream.ending == .closed)
    }

    @Test func resetEndsEveryStreamAndCountsFromTheStart() {
        let stream = subscribe(["A"]).stream
        hub.reset()
        #expect(stream.ending == .closed)
        #expect(hub.budget.count == 0)
        let next = subscribe(["A"]).stream
        #expect(next.events[0].data.contains(#""displayName":"user1""#))
    }

    @Test func aCutSendsHalfTheFrameAndEndsTheConnection() {
        let (id, stream) = subscribe(["A"])
        let before = stream.text.utf8.count
        let frame = ServerEventFrame.bytes(
            id: 3, payload: ServerEventFrame.payload(selector: "cmd.x", body: Array("\"hello\"".utf8)))
        #expect(hub.notify(.subscription(id), selector: "cmd.x", body: Array("\"hello\"".utf8), cut: true) == 1)
        #expect(stream.ending == .cut)
        #expect(Array(stream.text.utf8.dropFirst(before)) == Array(frame.prefix(frame.count / 2)))
        #expect(hub.notify(.subscription(id), selector: "cmd.x", body: []) == 0)
    }

    @Test func heldEventsGoOutInOrderWhenTheirTimersFire() {
        let (id, stream) = subscribe(["A"])
        hub.delayEvents(byMilliseconds: 200)
        _ = hub.notify(.subscription(id), selector: "cmd.one", body: [])
        _ = hub.notify(.subscription(id), selector: "cmd.two", body: [])
        #expect(stream.selectors == ["cmd.onConnect", "A@cmd.onJoin"])
        // The expiry check, then one timer per held event.
        #expect(stream.scheduledDelays == [30_000, 200, 200])
        stream.runScheduled()
        #expect(stream.selectors.suffix(2) == ["cmd.one", "cmd.two"])
        #expect(stream.events.map(\.id) == [1, 2, 3, 4])
    }

    @Test func aNullBodyKeepsTheSpaceAfterTheSelector() {
        let (id, stream) = subscribe(["A"])
        _ = hub.notify(.subscription(id), selector: "cmd.toggle$#channels", body: [])
        #expect(stream.text.hasSuffix("id: 3\ndata: cmd.toggle$#channels \n\n"))
    }

    @Test func theBudgetCountsOpenStreamsAcrossSessions() {
        let session = hub.forSession()
        subscribe(["A"])
        subscribe(["A"])
        _ = session.subscribe(channels: ["A"], baseURL: "", stream: RecordingByteStream()) { .anonymous(number: $0) }
        #expect(hub.budget.isFull)
        #expect(session.subscribers(channels: []).count == 1)
        #expect(hub.subscribers(channels: []).count == 2)
    }

    @Test func usersAreNamedAsServerEventsNamesThem() {
        let user = { (userName: String?, displayName: String?) in
            SubscriberIdentity.authenticated(
                AuthSession(
                    profile: UserProfile(userAuthId: "7", userName: userName, displayName: displayName),
                    sessionId: "s"),
                number: 4)
        }
        #expect(
            user("sseuser", nil)
                == SubscriberIdentity(
                    userId: "7", displayName: "sseuser", isAuthenticated: true,
                    profileUrl: SubscriberIdentity.defaultProfileUrl))
        #expect(user("a@b.com", "Ann Lee-Smith").displayName == "Ann_Lee_Smith")
        #expect(user("1234", nil).displayName == "user4")
        #expect(SubscriberIdentity.anonymous(number: 12).userId == "-12")
    }

    @Test func safeInputAndHTMLEncodingAreServiceStacks() {
        #expect(SafeInput.filter("ab'c-d[e]f:g h.i") == "abcd[efg h.i")
        #expect(
            HTMLEncoding.encode(#"<b>"Tom's" & é 😀 ′</b>"#)
                == "&lt;b&gt;&quot;Tom&#39;s&quot; &amp; &#233; &#128512; &prime;&lt;/b&gt;")
    }

    @Test func namesThatCannotGoOnTheWireAreRefused() {
        #expect(ServerEventFrame.problem(withName: "home", kind: "channel") == nil)
        #expect(ServerEventFrame.problem(withName: "a@b", kind: "channel") != nil)
        #expect(ServerEventFrame.problem(withName: "cmd.a b", kind: "selector") != nil)
        #expect(ServerEventFrame.problem(withName: "", kind: "selector") == "The selector is empty")
    }
}
