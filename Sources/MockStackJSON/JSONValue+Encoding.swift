extension JSONValue {
    /// Compact JSON with keys in stored order. Escapes only what JSON requires (`"`, `\`,
    /// control characters), the way ServiceStack.Text does; non-ASCII is written as UTF-8.
    public func encoded(escaping: JSONEscaping = .minimal) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        encode(into: &out, escaping: escaping)
        return out
    }

    /// The compact encoding as a string.
    public var jsonText: String { String(decoding: encoded(), as: UTF8.self) }

    /// Appends the compact encoding to `out` (what ``encoded(escaping:)`` returns, without a buffer of its own).
    public func encode(into out: inout [UInt8], escaping: JSONEscaping = .minimal) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.literal.utf8)
        case .string(let s): JSONValue.encodeString(s, into: &out, escaping: escaping)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.encode(into: &out, escaping: escaping)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.encodeString(member.key, into: &out, escaping: escaping)
                out.append(UInt8(ascii: ":"))
                member.value.encode(into: &out, escaping: escaping)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `string` as a JSON string literal.
    public static func encodeString(_ string: String, into out: inout [UInt8], escaping: JSONEscaping = .minimal) {
        if escaping == .htmlSafeASCII { return encodeHTMLSafe(string, into: &out) }
        // Over the string's own UTF-8 in place: walking `String.UTF8View` by index costs
        // several times as much per byte.
        UTF8Bytes.withSpan(string) { encodeMinimal($0, into: &out) }
    }

    /// Writes text already held as valid UTF-8 bytes (built up as bytes, never made a `String`)
    /// as a JSON string literal: the same output as ``encodeString(_:into:escaping:)`` of that text.
    public static func encodeString(utf8 bytes: [UInt8], into out: inout [UInt8], escaping: JSONEscaping = .minimal) {
        if escaping == .htmlSafeASCII { return encodeHTMLSafe(String(decoding: bytes, as: UTF8.self), into: &out) }
        let all = bytes[...]
        encodeMinimal(all.span, into: &out)
    }

    /// `bytes` (UTF-8) as a JSON string literal escaping only what JSON requires. Nearly every
    /// string needs no escape; runs between escapes are copied whole either way, and the bytes
    /// are looked over eight at a time until a word holds one to escape.
    private static func encodeMinimal(_ bytes: Span<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            if index + 8 <= count, !mayNeedEscape(ByteWords.word(bytes, at: index)) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index - 1 { UTF8Bytes.append(bytes.extracting(runStart..<(index - 1)), to: &out) }
                runStart = index
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C:
                    out.append(shortEscape(byte))
                default:
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
        }
        if runStart < bytes.count { UTF8Bytes.append(bytes.extracting(runStart...), to: &out) }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Whether a word of eight bytes holds a control character, `"` or `\\`.
    @inline(__always)
    fileprivate static func mayNeedEscape(_ word: UInt64) -> Bool {
        let quotes = ByteWords.bytesBelow(word ^ ByteWords.repeating(UInt8(ascii: "\"")), 1)
        let backslashes = ByteWords.bytesBelow(word ^ ByteWords.repeating(UInt8(ascii: "\\")), 1)
        return ByteWords.bytesBelow(word, 0x20) | quotes | backslashes != 0
    }
}

/// How much of a string literal is escaped.
public enum JSONEscaping: Sendable, Equatable {
    /// Only what JSON requires (`"`, `\`, control characters); UTF-8 written raw. ServiceStack.Text.
    case minimal
    /// System.Text.Json's default encoder: additionally `'` `<` `>` `&` `+` `` ` ``, DEL and every
    /// non-ASCII character as `\uXXXX` (upper-case hex, UTF-16 surrogate pairs).
    case htmlSafeASCII
}

extension JSONValue {
    fileprivate static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func encodeHTMLSafe(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Nearly every string is printable ASCII with nothing to escape: copied in one go, from
        // the string's own UTF-8.
        let copied = UTF8Bytes.withSpan(string) { bytes in
            for index in bytes.indices where !isHTMLSafeASCII(bytes[index]) { return false }
            UTF8Bytes.append(bytes, to: &out)
            return true
        }
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for unit in string.utf16 {
            switch unit {
            case 0x20..<0x7F where isHTMLSafeASCII(UInt8(unit)):
                out.append(UInt8(unit))
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C:
                out.append(UInt8(ascii: "\\"))
                out.append(shortEscape(UInt8(unit)))
            default:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(hexDigits[Int(unit >> UInt16(shift)) & 0xF])
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The letter after the backslash for the characters JSON escapes in two bytes: `"`, `\`,
    /// line feed, carriage return, tab, backspace and form feed.
    @inline(__always)
    private static func shortEscape(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: byte
        }
    }

    /// Printable ASCII that System.Text.Json's default encoder writes as it is: not `"` or `\`,
    /// and none of the HTML-sensitive `'<>&+` and backtick.
    @inline(__always)
    private static func isHTMLSafeASCII(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: "`"):
            return false
        default:
            return byte >= 0x20 && byte < 0x7F
        }
    }
}
