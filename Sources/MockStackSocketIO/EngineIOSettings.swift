/// A server's Engine.IO timing and limits, with engine.io's defaults.
public struct EngineIOSettings: Sendable, Equatable {
    /// Revision 4: how long after a pong the server pings again. Revision 3: what the client is told
    /// to ping at.
    public var pingInterval: Int = 25_000
    /// How long a ping may go unanswered (revision 4), or how long past `pingInterval` a client may
    /// stay silent (revision 3), before the session closes with "ping timeout".
    public var pingTimeout: Int = 20_000
    /// How long a WebSocket may take from its probe to the `upgrade` packet.
    public var upgradeTimeout: Int = 10_000
    /// How long a session closed by the server waits for the poll that tells the client so.
    public var closeTimeout: Int = 30_000
    /// The largest polling body or WebSocket message accepted, in bytes (socket.io's `maxHttpBufferSize`).
    public var maxPayload: Int = 1_000_000

    public init() {}
}
