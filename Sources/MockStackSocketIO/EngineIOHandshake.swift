public import MockStackJSON

/// What the `open` packet tells a new client: its session id and the session's timing and limits.
public struct EngineIOHandshake: Sendable, Equatable {
    public var sid: String
    /// The transports the client may upgrade to: `["websocket"]` from polling, `[]` on a WebSocket.
    public var upgrades: [EngineIOTransport]
    public var pingInterval: Int
    public var pingTimeout: Int
    /// The largest payload accepted, in bytes; sent in revision 4 only.
    public var maxPayload: Int

    public init(sid: String, upgrades: [EngineIOTransport], pingInterval: Int, pingTimeout: Int, maxPayload: Int) {
        self.sid = sid
        self.upgrades = upgrades
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.maxPayload = maxPayload
    }

    /// The open packet's JSON, its keys in engine.io's order: `sid`, `upgrades`, `pingInterval`,
    /// `pingTimeout`, then `maxPayload` (revision 4 only; engine.io 3 never sent it).
    public func json(for revision: EngineIOProtocol) -> JSONValue {
        var members: [JSONObject.Member] = [
            ("sid", .string(sid)),
            ("upgrades", .array(upgrades.map { .string($0.rawValue) })),
            ("pingInterval", .number(JSONNumber(pingInterval))),
            ("pingTimeout", .number(JSONNumber(pingTimeout))),
        ]
        if revision == .v4 { members.append(("maxPayload", .number(JSONNumber(maxPayload)))) }
        return .object(JSONObject(members))
    }

    /// The open packet itself.
    public func packet(for revision: EngineIOProtocol) -> EngineIOPacket {
        EngineIOPacket(.open, json(for: revision).jsonText)
    }
}
