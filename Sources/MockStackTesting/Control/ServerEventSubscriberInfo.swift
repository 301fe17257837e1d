public import MockStackJSON

/// An open Server Events subscription as `GET /__mockstack/server-events` lists it.
public struct ServerEventSubscriberInfo: Sendable, Equatable {
    /// The app that keeps it (`test`).
    public var app: String
    /// `id`: what `sendServerEvent(…, to: .subscription(id))` and the client's heartbeat and
    /// unregister URLs name (20 letters and digits).
    public var id: String
    /// `userId`: `-N` for an anonymous subscriber, else the signed-in user's id.
    public var userId: String
    /// `displayName`: `userN` for an anonymous subscriber, else the user's name.
    public var displayName: String
    /// `isAuthenticated`: whether the stream was opened signed in.
    public var isAuthenticated: Bool
    /// `channels`, in joining order: `["*"]` for a client that named none.
    public var channels: [String]
    /// `createdAt`: the moment it subscribed, as Unix milliseconds.
    public var createdAt: Int64
    /// `idleMs`: milliseconds since its latest heartbeat, or since it subscribed.
    public var idleMilliseconds: Int
    /// `eventsSent`: the frames it has been sent, its latest `id:`.
    public var eventsSent: Int

    /// Read from one listed subscription.
    public init(_ json: JSONValue) {
        app = json["app"]?.stringValue ?? ""
        id = json["id"]?.stringValue ?? ""
        userId = json["userId"]?.stringValue ?? ""
        displayName = json["displayName"]?.stringValue ?? ""
        isAuthenticated = json["isAuthenticated"]?.boolValue ?? false
        channels = json["channels"]?.arrayValue?.compactMap(\.stringValue) ?? []
        createdAt = json["createdAt"]?.intValue.map(Int64.init) ?? 0
        idleMilliseconds = json["idleMs"]?.intValue ?? 0
        eventsSent = json["eventsSent"]?.intValue ?? 0
    }
}
