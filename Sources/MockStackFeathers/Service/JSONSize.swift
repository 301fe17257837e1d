import MockStackCore

/// How many bytes a value's compact JSON takes (``JSONValue/encoded(escaping:)`` with the
/// minimal escaping), counted without writing it: what a store's limits weigh records by.
enum JSONSize {
    static func of(_ object: JSONObject) -> Int {
        var size = 2 + max(object.count - 1, 0)
        for member in object.members { size += of(member.key) + 1 + of(member.value) }
        return size
    }

    static func of(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(let flag): return flag ? 4 : 5
        case .number(let number): return number.literal.utf8.count
        case .string(let text): return of(text)
        case .array(let items):
            var size = 2 + max(items.count - 1, 0)
            for item in items { size += of(item) }
            return size
        case .object(let object): return of(object)
        }
    }

    /// A string literal: its quotes, its UTF-8, and what escaping adds (`\"`, `\\`, `\n`,
    /// `\r`, `\t`, `\b`, `\f` one byte each, other control characters `\u00XX` five).
    static func of(_ text: String) -> Int {
        var size = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: size += 2
            case 0..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }
}
