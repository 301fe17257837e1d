import MockStackControl
import MockStackCore
import Synchronization

/// An app with Server Events for the control plane's tests: subscriptions added by hand, what
/// it was sent recorded, the refusals a real app gives. Each session gets a copy of its own,
/// empty, kept in ``copies``.
final class FakeServerEventsApp: ServerEventsApp, Sendable {
    let name: String
    let mount: String
    let kind = "fake"
    var routes: [RouteDescription] { [] }
    let keepsRealtimeConnections: Bool
    /// The largest message it takes, in bytes of the body's JSON.
    static let sizeLimit = 64

    private let subscribers = Mutex<[ServerEventSubscriber]>([])
    private let sentMessages = Mutex<[ServerEventMessage]>([])
    private let observer = Mutex<(@Sendable (RealtimeActivity) -> Void)?>(nil)
    private let madeCopies = Mutex<[FakeServerEventsApp]>([])

    init(name: String = "chat", serverEvents: Bool = true) {
        self.name = name
        mount = "/" + name
        keepsRealtimeConnections = serverEvents
    }

    /// The messages sent to it, oldest first.
    var sent: [ServerEventMessage] { sentMessages.withLock { $0 } }
    /// The sessions' copies, in the order they were made.
    var copies: [FakeServerEventsApp] { madeCopies.withLock { $0 } }

    /// A subscription as the tests make them: `id` subscribed to `channels` as `userId`.
    static func subscriber(_ id: String, userId: String = "-1", channels: [String] = ["*"]) -> ServerEventSubscriber {
        ServerEventSubscriber(
            id: id, userId: userId, displayName: "user" + id, isAuthenticated: !userId.hasPrefix("-"),
            channels: channels, createdAt: 1_700_000_000_000, idleMilliseconds: 5, eventsSent: 1)
    }

    /// Opens a subscription and reports it, as the app does once it is registered.
    func connect(_ subscriber: ServerEventSubscriber) {
        subscribers.withLock { $0.append(subscriber) }
        report(RealtimeActivity(kind: .connected, connection: subscriber.id, name: "Server Events"))
    }

    func report(_ activity: RealtimeActivity) { observer.withLock { $0 }?(activity) }

    func makeSession() -> any MockApp {
        let copy = FakeServerEventsApp(name: name, serverEvents: keepsRealtimeConnections)
        madeCopies.withLock { $0.append(copy) }
        return copy
    }

    func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 404) }

    func serverEventSubscribers(channel: String?) -> [ServerEventSubscriber] {
        subscribers.withLock { $0 }.filter { subscriber in channel.map(subscriber.channels.contains) ?? true }
    }

    func sendServerEvent(_ message: ServerEventMessage) -> Result<Int, ServerEventRefusal> {
        sentMessages.withLock { $0.append(message) }
        if message.selector.contains("@") { return .failure(.invalidName("'@' is not allowed in a selector")) }
        let size = message.body?.encoded().count ?? 0
        if size > Self.sizeLimit { return .failure(.tooLarge(size, limit: Self.sizeLimit)) }
        let all = serverEventSubscribers(channel: nil)
        switch message.target {
        case .everyone: return .success(all.count)
        case .channel(let channel): return .success(serverEventSubscribers(channel: channel).count)
        case .user(let userId): return .success(all.filter { $0.userId == userId }.count)
        case .subscription(let id):
            return all.contains { $0.id == id } ? .success(1) : .failure(.unknownSubscription(id))
        }
    }

    var realtimeConnections: [RealtimeConnection] {
        serverEventSubscribers(channel: nil).map { subscriber in
            RealtimeConnection(
                id: subscriber.id, transport: "event-stream", protocolName: "Server Events",
                signedIn: subscriber.isAuthenticated, channels: subscriber.channels)
        }
    }

    func disconnect(_ id: String) -> Bool {
        subscribers.withLock { subscribers in
            guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return false }
            subscribers.remove(at: index)
            return true
        }
    }

    func disconnectAll() { subscribers.withLock { $0.removeAll() } }
    func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int { 0 }
    func delayEvents(byMilliseconds milliseconds: Int) {}
    var eventDelayMilliseconds: Int { 0 }
    func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        self.observer.withLock { $0 = observer }
    }
}
