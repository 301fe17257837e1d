/// The two Engine.IO protocol revisions mockstack speaks: 3 (engine.io 3.x, under socket.io 2.x and
/// Feathers 4) and 4 (engine.io 4+ under socket.io 3/4 and Feathers 5). docs/feathers-realtime.md#engineio.
public enum EngineIOProtocol: Int, Sendable, Equatable {
    /// Client pings, the server answers; polling payloads are `<length>:<packet>` with the length
    /// in UTF-16 code units; no `maxPayload` in the open packet.
    case v3 = 3
    /// Server pings, the client answers; polling payloads joined by the record separator `\u{1E}`.
    case v4 = 4

    /// The revision a handshake asks for, as a server decides it from the `EIO` query parameter:
    /// engine.io 4+ serves `"4"` as 4 and anything else (missing, `3`, `5`, `abc`) as 3, which it
    /// refuses unless `allowEIO3` is set; engine.io 3.x never reads the parameter at all.
    ///
    /// - Parameters:
    ///   - parameter: the `EIO` query parameter as received, if any.
    ///   - server: the revision the server itself speaks.
    ///   - allowsV3: whether a revision-4 server also serves revision 3 (socket.io's `allowEIO3`).
    /// - Returns: the revision to speak, or nil when the server refuses the request
    ///   (``EngineIORequestError/unsupportedProtocolVersion``).
    public static func negotiated(parameter: String?, server: EngineIOProtocol, allowsV3: Bool) -> EngineIOProtocol? {
        switch server {
        case .v3: return .v3
        case .v4: return parameter == "4" ? .v4 : (allowsV3 ? .v3 : nil)
        }
    }
}

/// How a client reaches an Engine.IO session.
public enum EngineIOTransport: String, Sendable, Equatable {
    /// HTTP long-polling: GETs that wait for packets, POSTs that carry them.
    case polling
    /// One WebSocket, one packet a message.
    case websocket
}
