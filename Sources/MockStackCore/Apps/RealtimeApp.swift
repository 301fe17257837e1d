/// An app that also keeps long-lived real-time connections open (Feathers over Socket.IO): what
/// the control plane lists, drops, pushes events to, slows down and journals.
public protocol RealtimeApp: MockApp {
    /// Whether this app keeps real-time connections at all (a ServiceStack app only with its
    /// Server Events feature on); the control plane lists and steers only those that do.
    var keepsRealtimeConnections: Bool { get }
    /// The connections open now, oldest first.
    var realtimeConnections: [RealtimeConnection] { get }
    /// Ends one connection as the server would; false when none has that id.
    func disconnect(_ id: String) -> Bool
    /// Ends every connection: the app stops being served (a session dropped, a reload).
    func disconnectAll()
    /// Sends an event (`name` with `arguments`) to the connections of `audience`.
    /// - Returns: how many connections it went to.
    func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int
    /// Holds every event the app's connections are sent for this long first (0: none), in the
    /// order they were sent. Reset puts it back to 0.
    func delayEvents(byMilliseconds milliseconds: Int)
    /// The current hold, in milliseconds.
    var eventDelayMilliseconds: Int { get }
    /// Where the app reports its connections' activity: opened, calls, events, closed. The
    /// observer may call back into the app (a Server Events wait lists its subscriptions), so
    /// the app calls it outside its own locks.
    func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void)
}

extension RealtimeApp {
    public var keepsRealtimeConnections: Bool { true }
}

/// One open real-time connection, as the control plane lists it.
public struct RealtimeConnection: Sendable, Equatable {
    public var id: String
    /// `polling` or `websocket`.
    public var transport: String
    /// The protocol spoken, e.g. `Engine.IO 4, Socket.IO 5`.
    public var protocolName: String
    public var signedIn: Bool
    /// The channels it is in (`anonymous`, `authenticated`).
    public var channels: [String]

    public init(id: String, transport: String, protocolName: String, signedIn: Bool, channels: [String]) {
        self.id = id
        self.transport = transport
        self.protocolName = protocolName
        self.signedIn = signedIn
        self.channels = channels
    }

    /// `{"id","transport","protocol","signedIn","channels"}`.
    public var json: JSONValue {
        [
            "id": .string(id), "transport": .string(transport), "protocol": .string(protocolName),
            "signedIn": .bool(signedIn),
            "channels": .array(channels.map(JSONValue.string)),
        ]
    }
}

/// Which connections an event pushed from the control plane goes to.
public enum RealtimeAudience: String, Sendable, CaseIterable {
    /// Every connection that has joined.
    case all
    /// Signed-in connections only: where a generated app publishes its service events.
    case authenticated
    /// Connections not signed in.
    case anonymous
}

/// Something a real-time connection did, for the journal.
public struct RealtimeActivity: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A connection joined (`name`: the Socket.IO revision it speaks, `Socket.IO 5`).
        case connected
        /// A client called a service method (`name`: `service.method`; `data`: the arguments;
        /// `answer`: the acknowledgement's arguments, nil when none was asked for or sent).
        case call
        /// An event went out (`name`: the event; `data`: its arguments; `recipients`: to how many).
        case event
        /// A connection left (`name`: why).
        case disconnected
    }

    public var kind: Kind
    /// The connection's id; nil for an event sent to many.
    public var connection: String?
    public var name: String
    public var data: JSONValue
    public var answer: JSONValue?
    public var recipients: Int?

    public init(
        kind: Kind, connection: String?, name: String, data: JSONValue = .null, answer: JSONValue? = nil,
        recipients: Int? = nil
    ) {
        self.kind = kind
        self.connection = connection
        self.name = name
        self.data = data
        self.answer = answer
        self.recipients = recipients
    }
}
