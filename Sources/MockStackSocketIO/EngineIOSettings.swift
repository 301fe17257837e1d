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
    /// The UTF-8 bytes of packets a polling session may hold for a client that does not poll
    /// (engine.io holds them without end). A packet that would take a non-empty outbox past it
    /// ends the session ("forced close"): the client's next request hears `Session ID unknown`.
    /// A single packet larger than the bound still waits alone, so one large answer is not lost.
    /// The same bound an upgraded stream's unsent output has (docs/transport.md#limits).
    public var maxOutboxBytes: Int = 4 * 1024 * 1024
    /// The packets one polling POST may carry, which bounds the work one request asks for: a
    /// body of more is refused whole with `413`, as a body over ``maxPayload`` is, and the
    /// session goes on. engine.io-client sends what its writes gathered while a POST was out,
    /// a few at a time.
    public var maxPacketsPerPayload: Int = 1_000
    /// Sessions open at once on an app, its copies in every mockstack session together (a
    /// mockstack session's app shares its app's budget: sessions are made by any client). A
    /// handshake past it is refused as engine.io's `allowRequest` refuses one: `403`
    /// `{"code":4,"message":…}` when polling, `400` and the message as text on a WebSocket.
    public var maxSessions: Int = 2_000

    public init() {}
}
