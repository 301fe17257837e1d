/// What an HTTP request to an Engine.IO endpoint asks for, once checked in engine.io's order
/// (`verify`, then `handshake`): transport, then session id, then method and upgrade, then
/// protocol revision. docs/feathers-realtime.md#errors.
public enum EngineIORequest: Sendable, Equatable {
    /// A new session (no `sid`): a polling GET, or a WebSocket upgrade straight away.
    case handshake(EngineIOProtocol, EngineIOTransport)
    /// A request on an open session: a poll or a post on polling, or the WebSocket that upgrades it.
    case session(sid: String, transport: EngineIOTransport)

    /// The facts of an HTTP request that decide what it asks for.
    public struct Facts: Sendable {
        public var method: String
        /// The `transport` query parameter.
        public var transport: String?
        /// The `sid` query parameter.
        public var sid: String?
        /// The `EIO` query parameter.
        public var revision: String?
        /// Whether the request asks to upgrade to a WebSocket.
        public var isUpgrade: Bool

        public init(method: String, transport: String?, sid: String?, revision: String?, isUpgrade: Bool) {
            self.method = method
            self.transport = transport
            self.sid = sid
            self.revision = revision
            self.isUpgrade = isUpgrade
        }
    }

    /// Checks a request against the server's rules and its open sessions.
    ///
    /// - Parameters:
    ///   - facts: the request.
    ///   - server: the revision the server speaks; `allowsV3` as socket.io's `allowEIO3`.
    ///   - sessionTransport: the transport an open session uses now, nil for an unknown `sid`.
    public static func classify(
        _ facts: Facts, server: EngineIOProtocol, allowsV3: Bool,
        sessionTransport: (String) -> EngineIOTransport?
    ) -> Result<EngineIORequest, EngineIORequestError> {
        guard let transport = facts.transport.flatMap(EngineIOTransport.init(rawValue:)) else {
            return .failure(.unknownTransport)
        }
        if let sid = facts.sid {
            guard let current = sessionTransport(sid) else { return .failure(.unknownSession) }
            // Only a WebSocket upgrade may name a session opened on another transport.
            if current != transport, !facts.isUpgrade { return .failure(.badRequest) }
            return .success(.session(sid: sid, transport: transport))
        }
        guard facts.method == "GET" else { return .failure(.badHandshakeMethod) }
        if transport == .websocket, !facts.isUpgrade { return .failure(.badRequest) }
        guard let revision = EngineIOProtocol.negotiated(parameter: facts.revision, server: server, allowsV3: allowsV3)
        else {
            return .failure(.unsupportedProtocolVersion)
        }
        return .success(.handshake(revision, transport))
    }
}
