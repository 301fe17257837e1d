/// Frames as bytes on the wire (RFC 6455 §5.2). Servers send them unmasked; a client's are
/// masked (`mask`), which tests use to speak as a client.
public enum WebSocketFrame {
    /// The bytes of one frame.
    public static func encode(
        _ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>, fin: Bool = true,
        mask: [UInt8]? = nil
    ) -> [UInt8] {
        encode(opcodeBits: opcode.rawValue, payload, fin: fin, mask: mask)
    }

    /// A frame with any opcode bits and reserved bits (`rsv`, 0–7), for tests of what is refused.
    public static func encode(
        opcodeBits: UInt8, rsv: UInt8 = 0, _ payload: some Collection<UInt8>, fin: Bool = true,
        mask: [UInt8]? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | (rsv & 0x7) << 4 | (opcodeBits & 0x0F))
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        let count = payload.count
        if count < 126 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift)))
            }
        }
        if let mask, mask.count == 4 {
            bytes += mask
            var index = 0
            for byte in payload {
                bytes.append(byte ^ mask[index & 3])
                index += 1
            }
        } else {
            bytes += payload
        }
        return bytes
    }

    /// A close frame's payload: the code, then the reason cut to the 123 bytes that fit
    /// (at a character's end).
    public static func closePayload(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var used = 0
        for character in reason {
            let bytes = character.utf8
            guard used + bytes.count <= 123 else { break }
            payload += bytes
            used += bytes.count
        }
        return payload
    }
}
