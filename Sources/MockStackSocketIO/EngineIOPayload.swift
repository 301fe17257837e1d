/// A polling request's or response's body: several packets in one, framed as the protocol
/// revision says. docs/feathers-realtime.md#packets-and-polling-framing.
public enum EngineIOPayload {
    /// Revision 4 joins packets with the record separator.
    static let recordSeparator: UInt16 = 0x1E

    /// The body that carries `packets` to a polling client.
    public static func encode(_ packets: [EngineIOPacket], protocol revision: EngineIOProtocol) -> String {
        switch revision {
        case .v4:
            return packets.map(\.encoded).joined(separator: "\u{1E}")
        case .v3:
            // `<length>:<packet>`, the length counted as JavaScript counts a string: UTF-16 code units.
            var body = ""
            for packet in packets {
                let encoded = packet.encoded
                body += String(encoded.utf16.count)
                body += ":"
                body += encoded
            }
            return body
        }
    }

    /// The packets a polling client's POST body carries; the first unreadable record fails the
    /// whole body, as engine.io closes the session on it. More than `maximumPackets` fail it with
    /// ``EngineIODecodingError/tooManyPackets`` as soon as the one past them is found, so a body
    /// of tiny packets is not read whole into values first.
    public static func decode(
        _ bytes: some Collection<UInt8>, protocol revision: EngineIOProtocol,
        maximumPackets: Int = .max
    ) throws(EngineIODecodingError) -> [EngineIOPacket] {
        // Revision 3 clients that take binary (no `b64=1`) may frame the body in binary: each
        // packet a 0 (text) or 1 (binary) byte, its length in bytes as one byte per decimal
        // digit, 255, then the packet (python-engineio 3 does; engine.io 3 reads both).
        if revision == .v3, let first = bytes.first, first <= 1 {
            return try decodeBinaryFramed(Array(bytes), maximumPackets: maximumPackets)
        }
        guard let body = String(validating: bytes, as: UTF8.self) else { throw .invalidText }
        return try decode(body, protocol: revision, maximumPackets: maximumPackets)
    }

    private static func decodeBinaryFramed(
        _ bytes: [UInt8], maximumPackets: Int
    ) throws(EngineIODecodingError) -> [EngineIOPacket] {
        var packets: [EngineIOPacket] = []
        var index = 0
        while index < bytes.count {
            guard packets.count < maximumPackets else { throw .tooManyPackets }
            guard bytes[index] == 0 else { throw bytes[index] == 1 ? .binaryPacket : .badLength }
            index += 1
            var length = 0
            var digits = 0
            while index < bytes.count, bytes[index] != 255 {
                guard bytes[index] <= 9, digits < maximumLengthDigits else { throw .badLength }
                length = length * 10 + Int(bytes[index])
                digits += 1
                index += 1
            }
            guard digits > 0, index < bytes.count, length <= bytes.count - index - 1 else { throw .badLength }
            let start = index + 1
            guard let text = String(validating: bytes[start..<start + length], as: UTF8.self) else {
                throw .invalidText
            }
            packets.append(try EngineIOPacket.decode(text))
            index = start + length
        }
        return packets
    }

    /// The packets of a body already held as text.
    public static func decode(
        _ body: String, protocol revision: EngineIOProtocol, maximumPackets: Int = .max
    ) throws(EngineIODecodingError) -> [EngineIOPacket] {
        let units = Substring(body).utf16
        switch revision {
        case .v4: return try decodeSeparated(units, maximumPackets: maximumPackets)
        case .v3: return try decodeLengthPrefixed(units, maximumPackets: maximumPackets)
        }
    }

    private static func decodeSeparated(
        _ units: Substring.UTF16View, maximumPackets: Int
    ) throws(EngineIODecodingError) -> [EngineIOPacket] {
        var packets: [EngineIOPacket] = []
        var start = units.startIndex
        while true {
            guard packets.count < maximumPackets else { throw .tooManyPackets }
            let end = units[start...].firstIndex(of: recordSeparator) ?? units.endIndex
            packets.append(try EngineIOPacket.decode(units[start..<end]))
            guard end < units.endIndex else { return packets }
            start = units.index(after: end)
        }
    }

    /// The longest length prefix read: more digits than this is no payload a server would accept.
    static let maximumLengthDigits = 10

    private static func decodeLengthPrefixed(
        _ units: Substring.UTF16View, maximumPackets: Int
    ) throws(EngineIODecodingError) -> [EngineIOPacket] {
        guard !units.isEmpty else { throw .emptyPacket }
        var packets: [EngineIOPacket] = []
        var index = units.startIndex
        while index < units.endIndex {
            var length = 0
            var digits = 0
            while index < units.endIndex, units[index] != UInt16(UInt8(ascii: ":")) {
                let unit = units[index]
                guard unit >= 0x30, unit <= 0x39, digits < maximumLengthDigits else { throw .badLength }
                length = length * 10 + Int(unit - 0x30)
                digits += 1
                index = units.index(after: index)
            }
            guard digits > 0, index < units.endIndex else { throw .badLength }
            let start = units.index(after: index)
            guard let end = units.index(start, offsetBy: length, limitedBy: units.endIndex) else { throw .badLength }
            // A zero-length record is skipped, as engine.io 3 skips it.
            if length > 0, packets.count == maximumPackets { throw .tooManyPackets }
            if length > 0 { packets.append(try EngineIOPacket.decode(units[start..<end])) }
            index = end
        }
        return packets
    }
}
