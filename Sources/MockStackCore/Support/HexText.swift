/// Bytes written as lower-case hexadecimal, two digits a byte: digests, build IDs, salts.
public enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as hex text (`[0xAB, 0x01]` → `ab01`).
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
