/// An app that keeps Server-Sent Events subscriptions open (ServiceStack's Server Events): what
/// the control plane lists and sends, beside what every ``RealtimeApp`` offers.
public protocol ServerEventsApp: RealtimeApp {
    /// The subscriptions open now, oldest first; only those in `channel` when one is given.
    func serverEventSubscribers(channel: String?) -> [ServerEventSubscriber]
    /// Sends one message as the app's own services would.
    /// - Returns: how many subscriptions it went to, or why it was refused.
    func sendServerEvent(_ message: ServerEventMessage) -> Result<Int, ServerEventRefusal>
}

/// One open subscription, as the control plane lists it.
public struct ServerEventSubscriber: Sendable, Equatable {
    /// The subscription id (20 letters and digits).
    public var id: String
    public var userId: String
    public var displayName: String
    public var isAuthenticated: Bool
    /// Its channels, in the order it joined them.
    public var channels: [String]
    /// When it subscribed, in milliseconds since 1970.
    public var createdAt: Int64
    /// How long ago its last heartbeat (or its subscription) was, in milliseconds.
    public var idleMilliseconds: Int
    /// Events sent to it so far (its latest `id:`).
    public var eventsSent: Int

    public init(
        id: String, userId: String, displayName: String, isAuthenticated: Bool, channels: [String], createdAt: Int64,
        idleMilliseconds: Int, eventsSent: Int
    ) {
        self.id = id
        self.userId = userId
        self.displayName = displayName
        self.isAuthenticated = isAuthenticated
        self.channels = channels
        self.createdAt = createdAt
        self.idleMilliseconds = idleMilliseconds
        self.eventsSent = eventsSent
    }

    /// `{"id","userId","displayName","isAuthenticated","channels","createdAt","idleMs","eventsSent"}`.
    public var json: JSONValue {
        [
            "id": .string(id), "userId": .string(userId), "displayName": .string(displayName),
            "isAuthenticated": .bool(isAuthenticated), "channels": .array(channels.map(JSONValue.string)),
            "createdAt": .number(JSONNumber(literal: String(createdAt))),
            "idleMs": .number(JSONNumber(idleMilliseconds)), "eventsSent": .number(JSONNumber(eventsSent)),
        ]
    }
}

/// A message the control plane sends to an app's subscribers.
public struct ServerEventMessage: Sendable, Equatable {
    /// Who receives it.
    public enum Target: Sendable, Equatable {
        /// Every subscription.
        case everyone
        /// The subscribers of a channel; the selector goes out as `channel@selector`.
        case channel(String)
        /// One subscription, by its id.
        case subscription(String)
        /// Every subscription of a user, by user id.
        case user(String)
    }

    /// `cmd.announce`, `trigger.refresh`, `css.background$#top`: what the client dispatches on.
    public var selector: String
    /// The body, written as JSON after the selector; nil leaves it empty.
    public var body: JSONValue?
    public var target: Target
    /// Cut each recipient's stream in the middle of this message (a fault): the first half of
    /// its frame goes out, then the connection ends without the body's end.
    public var cut: Bool

    public init(selector: String, body: JSONValue?, target: Target, cut: Bool = false) {
        self.selector = selector
        self.body = body
        self.target = target
        self.cut = cut
    }
}

/// Why a Server Events message was not sent.
public enum ServerEventRefusal: Error, Sendable, Equatable {
    /// No open subscription has this id.
    case unknownSubscription(String)
    /// A selector or channel the server would refuse (empty, or with `@` or a line break).
    case invalidName(String)
    /// The message is larger than the app takes (its size, the limit).
    case tooLarge(Int, limit: Int)

    /// The refusal in a sentence, for the control plane's error body.
    public var message: String {
        switch self {
        case .unknownSubscription(let id): "No subscription '\(id)'"
        case .invalidName(let why): why
        case .tooLarge(let size, let limit): "The message is \(size) bytes; the limit is \(limit)"
        }
    }
}
