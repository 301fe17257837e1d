/// The standard base64 alphabet with padding (RFC 4648 §4), as the handshake uses it.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let count = min(3, input.count - index)
            let chunk = UInt32(input[index]) << 16 | (count > 1 ? UInt32(input[index + 1]) << 8 : 0) | (count > 2 ? UInt32(input[index + 2]) : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(count > 1 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(count > 2 ? alphabet[Int(chunk & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// How many bytes `text` decodes to, or nil when it is not padded base64.
    static func decodedCount(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        guard bytes.dropLast(padding).allSatisfy({ alphabet.contains($0) }) else { return nil }
        return bytes.count / 4 * 3 - padding
    }
}
