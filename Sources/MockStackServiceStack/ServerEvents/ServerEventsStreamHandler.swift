import MockStackCore

/// Serves one `/event-stream` answer once its head is out: subscribes, then, when the
/// connection ends for any reason, lets the hub know. Called on the connection's loop only.
final class ServerEventsStreamHandler: ByteStreamHandler {
    private let hub: ServerEventsHub
    private let channels: [String]
    private let baseURL: String
    private let identity: @Sendable (_ connection: Int) -> SubscriberIdentity
    private var subscription: ServerEventsSubscription?

    init(
        hub: ServerEventsHub, channels: [String], baseURL: String,
        identity: @escaping @Sendable (_ connection: Int) -> SubscriberIdentity
    ) {
        self.hub = hub
        self.channels = channels
        self.baseURL = baseURL
        self.identity = identity
    }

    func started(on stream: any ByteStream) {
        subscription = hub.subscribe(channels: channels, baseURL: baseURL, stream: stream, identity: identity)
    }

    /// A Server Events client sends nothing after its request; whatever comes is dropped.
    func received(_ bytes: [UInt8]) {}

    /// The answer ends as an unregistered one does: what waits for it, then its last chunk.
    func serverStopping() { subscription?.end() }

    /// The stream takes output: the subscription writes its next events.
    func outputWanted() { subscription?.outputWanted() }

    func streamEnded() {
        if let subscription { hub.streamEnded(subscription.id) }
        subscription = nil
    }
}
