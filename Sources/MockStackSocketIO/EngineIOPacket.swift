/// An Engine.IO packet's type: its first character on the wire.
public enum EngineIOPacketType: UInt8, Sendable, Equatable, CaseIterable {
    case open = 0
    case close = 1
    case ping = 2
    case pong = 3
    case message = 4
    case upgrade = 5
    case noop = 6

    /// The type a wire character names, if any.
    init?(character: UInt16) {
        guard character >= 0x30, let type = EngineIOPacketType(rawValue: UInt8(truncatingIfNeeded: character - 0x30))
        else { return nil }
        self = type
    }
}

/// One Engine.IO packet with a text payload (possibly empty). Binary packets are never sent by
/// mockstack (Feathers speaks JSON only) and are refused when received:
/// ``EngineIODecodingError/binaryPacket``.
public struct EngineIOPacket: Sendable, Equatable {
    public var type: EngineIOPacketType
    public var text: String

    public init(_ type: EngineIOPacketType, _ text: String = "") {
        self.type = type
        self.text = text
    }

    /// A `message` packet carrying `text` (a Socket.IO packet, usually).
    public static func message(_ text: String) -> EngineIOPacket { EngineIOPacket(.message, text) }

    /// The packet as one WebSocket text message, or one record of a polling payload:
    /// its type's digit, then its text.
    public var encoded: String { String(type.rawValue) + text }

    /// Reads one packet from a WebSocket text message or one record of a polling payload.
    public static func decode(_ encoded: Substring.UTF16View) throws(EngineIODecodingError) -> EngineIOPacket {
        guard let first = encoded.first else { throw .emptyPacket }
        if first == UInt16(UInt8(ascii: "b")) { throw .binaryPacket }
        guard let type = EngineIOPacketType(character: first) else { throw .unknownPacketType }
        let rest = encoded.index(after: encoded.startIndex)
        guard let text = String(encoded[rest...]) else { throw .invalidText }
        return EngineIOPacket(type, text)
    }

    /// Reads one packet from a WebSocket text message.
    public static func decode(_ encoded: String) throws(EngineIODecodingError) -> EngineIOPacket {
        try decode(Substring(encoded).utf16)
    }
}

/// Why packets could not be read. Engine.IO answers each by closing the session ("parse error").
public enum EngineIODecodingError: Error, Sendable, Equatable {
    /// A record with no type character (an empty body, two separators in a row).
    case emptyPacket
    /// A first character that is no packet type.
    case unknownPacketType
    /// A base64 binary packet (`b…`): Feathers never needs one, so mockstack refuses it.
    case binaryPacket
    /// A revision-3 record whose length prefix is missing, not a number, or longer than what follows.
    case badLength
    /// Bytes that are not UTF-8 text, or a record that splits a surrogate pair.
    case invalidText
    /// A polling body with more packets than the server takes in one
    /// (``EngineIOSettings/maxPacketsPerPayload``).
    case tooManyPackets
}
