import MockStackCore

/// Limits and choices for the WebSocket connections one endpoint accepts.
public struct WebSocketConfiguration: Sendable {
    /// The longest message accepted (all its fragments together); longer ones close the
    /// connection with 1009. 1 MiB by default.
    public var maxMessageBytes = 1 << 20
    /// How long a close we start waits for the client's close before the connection ends anyway.
    public var closeTimeoutMilliseconds = 5_000
    /// Bytes sent and not yet taken by the client, at most; past it the connection is dropped.
    public var unsentOutputLimit = ConnectionUpgrade.defaultUnsentOutputLimit
    /// The subprotocols served, in order of preference: the first the client offers
    /// (`Sec-WebSocket-Protocol`) is chosen; none when empty or none matches.
    public var subprotocols: [String] = []

    public init(maxMessageBytes: Int = 1 << 20, closeTimeoutMilliseconds: Int = 5_000, subprotocols: [String] = []) {
        self.maxMessageBytes = maxMessageBytes
        self.closeTimeoutMilliseconds = closeTimeoutMilliseconds
        self.subprotocols = subprotocols
    }
}
