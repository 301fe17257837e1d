/// Decoding of `%XX` escapes in paths, query strings and urlencoded forms.
public enum PercentDecoding {
    /// Decodes `%XX` (invalid escapes are kept as they are); with `plusAsSpace`, `+` is a space
    /// (query strings and forms, not paths). Invalid UTF-8 is repaired with U+FFFD.
    ///
    /// Inlinable, so that callers in other modules get it specialized for their string type:
    /// unspecialized, the scan for `%` walks the text through witness tables, byte by byte,
    /// and an operation name in every ServiceStack route is decoded.
    @inlinable
    public static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        return decode(bytes: Array(text.utf8)[...], plusAsSpace: plusAsSpace)
    }

    /// The same for bytes already split out of a request.
    public static func decode(bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
        var plain = true
        for byte in bytes where byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
            plain = false
            break
        }
        if plain { return String(decoding: bytes, as: UTF8.self) }
        // Lenient decoding never fails: a bad escape is kept as it is.
        return String(decoding: decodedBytes(bytes, plusAsSpace: plusAsSpace, strict: false) ?? [], as: UTF8.self)
    }

    /// JavaScript's `decodeURIComponent` after `+` → space, as qs decodes: nil when an escape
    /// is not two hex digits or the bytes are not UTF-8, where JavaScript throws.
    public static func decodeStrictly(_ text: some StringProtocol, plusAsSpace: Bool) -> String? {
        decodedBytes(Array(text.utf8)[...], plusAsSpace: plusAsSpace, strict: true).flatMap {
            String(validating: $0, as: UTF8.self)
        }
    }

    /// The bytes with escapes (and `+`) decoded; a bad escape is kept, or, when `strict`, nil.
    private static func decodedBytes(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool, strict: Bool) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                {
                    output.append(high << 4 | low)
                    index += 3
                    continue
                }
                if strict { return nil }
            }
            output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
