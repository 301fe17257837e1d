import MockStackCore
import Synchronization

/// An app's Server Events: its subscriptions, indexed by id, channel and user, and every way
/// a message reaches them (docs/servicestack-server-events.md). Thread-safe: subscriptions come
/// and go on every loop, and services on any loop publish to them. Lookups happen under the
/// hub's lock; frames are written after it is let go, each subscription numbering its own.
public final class ServerEventsHub: Sendable {
    public let settings: ServerEventsSettings
    let budget: SubscriptionBudget
    let clock: ServerEventsClock
    private let state = Mutex(State())
    private let activity = RealtimeActivitySlot()
    private let eventDelay = Atomic<Int>(0)

    private struct State {
        /// Every stream still open, whether the registry knows it or forgot it (``forgetAll()``).
        var open: [String: ServerEventsSubscription] = [:]
        /// The subscriptions the feature knows, by id, then by channel and by user id.
        var registered: [String: ServerEventsSubscription] = [:]
        var byChannel: [String: [String: ServerEventsSubscription]] = [:]
        var byUser: [String: [String: ServerEventsSubscription]] = [:]
        /// Connections counted so far: anonymous subscribers are named by it.
        var connections = 0
        var sequence = 0
        var lastHouseKeeping: Int?
        var random = SystemRandomNumberGenerator()
        var chat = ChatHistory()
    }

    init(settings: ServerEventsSettings, budget: SubscriptionBudget, clock: ServerEventsClock) {
        self.settings = settings
        self.budget = budget
        self.clock = clock
    }

    /// A hub of its own for a session, sharing the settings and the subscription budget.
    func forSession() -> ServerEventsHub { ServerEventsHub(settings: settings, budget: budget, clock: clock) }

    // MARK: Subscribing

    /// A stream has opened: the subscription is made, told `cmd.onConnect` first, registered,
    /// and its channels hear it join. `identity` names the subscriber from the connection's number.
    @discardableResult
    func subscribe(
        channels: [String], baseURL: String, stream: any ByteStream,
        identity: (_ connection: Int) -> SubscriberIdentity
    ) -> ServerEventsSubscription {
        let now = clock.monotonicMilliseconds()
        let createdAt = clock.wallMilliseconds()
        let subscription = state.withLock { state in
            state.connections += 1
            state.sequence += 1
            var id = SubscriptionID.make(using: &state.random)
            while state.open[id] != nil { id = SubscriptionID.make(using: &state.random) }
            return ServerEventsSubscription(
                id: id, identity: identity(state.connections), channels: channels, createdAt: createdAt,
                sequence: state.sequence, now: now, stream: stream,
                unsentLimit: settings.unsentOutputLimit)
        }
        // Written before anything can reach the subscription through the indexes: its first frame.
        subscription.send(
            ServerEventFrame.payload(
                selector: "cmd.onConnect", body: connectArguments(of: subscription, baseURL: baseURL).encoded()))
        state.withLock { state in
            state.open[subscription.id] = subscription
            register(subscription, channels: channels, in: &state)
        }
        budget.opened()
        report(RealtimeActivity(kind: .connected, connection: subscription.id, name: "Server Events"))
        if settings.notifyChannelOfSubscriptions {
            let meta = meta(of: subscription).encoded()
            for channel in channels { notifyChannel(channel, selector: "cmd.onJoin", body: meta) }
        }
        scheduleExpiry(of: subscription, after: settings.idleTimeoutMilliseconds, now: now)
        return subscription
    }

    /// The stream has ended, whatever ended it: a subscription still registered leaves.
    func streamEnded(_ id: String) {
        let (subscription, known) = state.withLock { state -> (ServerEventsSubscription?, Bool) in
            guard let subscription = state.open.removeValue(forKey: id) else { return (nil, false) }
            return (subscription, unregister(id, in: &state) != nil)
        }
        guard let subscription else { return }
        budget.closed()
        if known { left(subscription, reason: "stream ended") }
    }

    /// `/event-unregister`: the subscription removed and its stream ended; its channels hear it leave.
    /// - Returns: the subscription, or nil when none has `id`.
    func unregister(_ id: String) -> ServerEventsSubscription? {
        guard let subscription = state.withLock({ unregister(id, in: &$0) }) else { return nil }
        subscription.end()
        left(subscription, reason: "unregistered")
        return subscription
    }

    /// `/event-heartbeat`: expired subscriptions are dropped first (at most once per
    /// house-keeping interval), then the subscription is pulsed and told `cmd.onHeartbeat`.
    /// - Returns: false when no subscription has `id`.
    func heartbeat(_ id: String) -> Bool {
        let now = clock.monotonicMilliseconds()
        houseKeep(now: now)
        guard let subscription = state.withLock({ $0.registered[id] }) else { return false }
        subscription.pulse(at: now)
        subscription.send(ServerEventFrame.payload(selector: "cmd.onHeartbeat", body: meta(of: subscription).encoded()))
        return true
    }

    /// `UpdateEventSubscriber`: unsubscribes first, then subscribes (kept channels keep their
    /// order, new ones are appended once), each step telling the channels concerned `cmd.onUpdate`.
    /// - Returns: false when no subscription has `id`.
    func update(_ id: String, subscribe added: [String], unsubscribe removed: [String]) -> Bool {
        guard let subscription = state.withLock({ $0.registered[id] }) else { return false }
        if !removed.isEmpty {
            change(subscription) { channels in channels.filter { !removed.contains($0) } }
        }
        if !added.isEmpty {
            change(subscription) { channels in
                var result = channels
                for channel in added where !result.contains(channel) { result.append(channel) }
                return result
            }
        }
        return true
    }

    private func change(_ subscription: ServerEventsSubscription, _ transform: ([String]) -> [String]) {
        let changed: (old: [String], new: [String])? = state.withLock { state in
            guard state.registered[subscription.id] != nil else { return nil }
            let old = subscription.channels
            let new = transform(old)
            subscription.setChannels(new)
            for channel in old where !new.contains(channel) {
                state.byChannel[channel]?[subscription.id] = nil
                if state.byChannel[channel]?.isEmpty == true { state.byChannel[channel] = nil }
            }
            for channel in new { state.byChannel[channel, default: [:]][subscription.id] = subscription }
            return (old, new)
        }
        guard let changed, settings.notifyChannelOfSubscriptions else { return }
        let meta = meta(of: subscription).encoded()
        var told: [String] = []
        for channel in changed.old + changed.new where !told.contains(channel) {
            told.append(channel)
            notifyChannel(channel, selector: "cmd.onUpdate", body: meta)
        }
    }

    // MARK: Reading

    /// The subscriptions of `channels`, channel by channel, each once; every one, oldest first,
    /// when no channel is named (`GetEventSubscribers`).
    func subscribers(channels: [String]) -> [ServerEventsSubscription] {
        state.withLock { state in
            if channels.isEmpty { return state.registered.values.sorted { $0.sequence < $1.sequence } }
            var seen: Set<String> = []
            var found: [ServerEventsSubscription] = []
            for channel in channels {
                for subscription in (state.byChannel[channel] ?? [:]).values.sorted(by: { $0.sequence < $1.sequence })
                where seen.insert(subscription.id).inserted {
                    found.append(subscription)
                }
            }
            return found
        }
    }

    func subscription(_ id: String) -> ServerEventsSubscription? { state.withLock { $0.registered[id] } }

    /// A user's subscriptions, oldest first.
    func subscriptions(ofUser userId: String) -> [ServerEventsSubscription] {
        state.withLock { ($0.byUser[userId] ?? [:]).values.sorted { $0.sequence < $1.sequence } }
    }

    // MARK: Publishing

    /// `<selector> <body>` to `target`'s subscriptions, those `include` takes: a channel's as
    /// `<channel>@<selector> <body>`, everyone else's without the prefix. `body` is JSON text,
    /// or empty for no body.
    /// - Returns: how many it went to; nil when the target is a subscription no one has.
    @discardableResult
    func notify(
        _ target: ServerEventMessage.Target, selector: String, body: [UInt8], cut: Bool = false,
        where include: (ServerEventsSubscription) -> Bool = { _ in true }
    ) -> Int? {
        let recipients: [ServerEventsSubscription]? = state.withLock { state in
            switch target {
            case .everyone: Array(state.registered.values)
            case .channel(let channel): Array((state.byChannel[channel] ?? [:]).values)
            case .user(let userId): Array((state.byUser[userId] ?? [:]).values)
            case .subscription(let id): state.registered[id].map { [$0] }
            }
        }
        guard let recipients else { return nil }
        let channel: String? = if case .channel(let channel) = target { channel } else { nil }
        return publish(
            ServerEventFrame.payload(selector: selector, channel: channel, body: body),
            name: channel.map { "\($0)@\(selector)" } ?? selector, body: body, to: recipients.filter(include), cut: cut)
    }

    /// `<channel>@<selector> <body>` to the channel's subscribers (the feature's own notices).
    private func notifyChannel(_ channel: String, selector: String, body: [UInt8]) {
        notify(.channel(channel), selector: selector, body: body)
    }

    private func publish(
        _ payload: [UInt8], name: String, body: [UInt8], to recipients: [ServerEventsSubscription], cut: Bool
    ) -> Int {
        let delay = eventDelay.load(ordering: .relaxed)
        var sent = 0
        for subscription in recipients where subscription.send(payload, delayMilliseconds: delay, cut: cut) {
            sent += 1
        }
        if activity.isObserved {
            // Read back only for the journal, which keeps JSON values.
            let data = body.isEmpty ? JSONValue.null : (try? JSONParser.forRequestBodies().parse(body).root) ?? .null
            report(RealtimeActivity(kind: .event, connection: nil, name: name, data: data, recipients: sent))
        }
        return sent
    }

    // MARK: Lifetimes

    /// `ResetServerEvents`: every subscription forgotten; open streams stay open but hear nothing
    /// more, and end at their expiry. The connection count goes on.
    func forgetAll() {
        state.withLock { state in
            state.registered = [:]
            state.byChannel = [:]
            state.byUser = [:]
        }
    }

    /// Back to the fixture state: every stream ended, counts from the start, chat history empty.
    func reset() {
        let open = state.withLock { state in
            defer { state = State() }
            return Array(state.open.values)
        }
        // Their streams' ends will find nothing: they are counted out now.
        for subscription in open {
            budget.closed()
            subscription.end()
        }
        eventDelay.store(0, ordering: .relaxed)
    }

    /// Ends every stream (the app stops being served); the registry forgets them as they end.
    func endAll() {
        for subscription in state.withLock({ Array($0.open.values) }) { subscription.end() }
    }

    /// Holds every event this long first (0: not at all).
    func delayEvents(byMilliseconds milliseconds: Int) { eventDelay.store(max(0, milliseconds), ordering: .relaxed) }

    var eventDelayMilliseconds: Int { eventDelay.load(ordering: .relaxed) }

    /// Where connections, events and departures are reported (the control plane's journal).
    func observe(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        activity.set(observer)
    }

    private func report(_ activity: RealtimeActivity) { self.activity.report(activity) }

    // MARK: Expiry

    /// Checks once the idle timeout may have passed (``ServerEventsSettings/expiryCheckDelay(_:now:)``);
    /// a heartbeat since then pushes the check on.
    private func scheduleExpiry(of subscription: ServerEventsSubscription, after milliseconds: Int, now: Int) {
        subscription.schedule(afterMilliseconds: settings.expiryCheckDelay(milliseconds, now: now)) { [weak self] in
            guard let self else { return }
            let now = clock.monotonicMilliseconds()
            let idle = now - subscription.lastPulse
            if idle >= settings.idleTimeoutMilliseconds {
                expire(subscription)
            } else {
                scheduleExpiry(of: subscription, after: settings.idleTimeoutMilliseconds - idle, now: now)
            }
        }
    }

    private func expire(_ subscription: ServerEventsSubscription) {
        let known = state.withLock { unregister(subscription.id, in: &$0) != nil }
        subscription.end()
        if known { left(subscription, reason: "idle timeout") }
    }

    /// Drops every registered subscription idle past the timeout, as the real server's
    /// heartbeat does, at most once per house-keeping interval.
    private func houseKeep(now: Int) {
        let expired = state.withLock { state -> [ServerEventsSubscription] in
            if let last = state.lastHouseKeeping, now - last < settings.houseKeepingIntervalMilliseconds { return [] }
            state.lastHouseKeeping = now
            return state.registered.values.filter { now - $0.lastPulse >= settings.idleTimeoutMilliseconds }
        }
        for subscription in expired { expire(subscription) }
    }

    // MARK: Indexes

    private func register(_ subscription: ServerEventsSubscription, channels: [String], in state: inout State) {
        state.registered[subscription.id] = subscription
        for channel in channels { state.byChannel[channel, default: [:]][subscription.id] = subscription }
        state.byUser[subscription.identity.userId, default: [:]][subscription.id] = subscription
    }

    private func unregister(_ id: String, in state: inout State) -> ServerEventsSubscription? {
        guard let subscription = state.registered.removeValue(forKey: id) else { return nil }
        for channel in subscription.channels {
            state.byChannel[channel]?[id] = nil
            if state.byChannel[channel]?.isEmpty == true { state.byChannel[channel] = nil }
        }
        let userId = subscription.identity.userId
        state.byUser[userId]?[id] = nil
        if state.byUser[userId]?.isEmpty == true { state.byUser[userId] = nil }
        return subscription
    }

    /// A subscription has gone: the remaining subscribers of its channels hear `cmd.onLeave`.
    private func left(_ subscription: ServerEventsSubscription, reason: String) {
        report(RealtimeActivity(kind: .disconnected, connection: subscription.id, name: reason))
        guard settings.notifyChannelOfSubscriptions else { return }
        let meta = meta(of: subscription).encoded()
        for channel in subscription.channels { notifyChannel(channel, selector: "cmd.onLeave", body: meta) }
    }

    // MARK: Chat

    /// The chat services' message ids and public history.
    func withChat<Result>(_ body: (inout ChatHistory) -> Result) -> Result { state.withLock { body(&$0.chat) } }
}
