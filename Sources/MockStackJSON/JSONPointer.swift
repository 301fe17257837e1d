/// RFC 6901 JSON pointers, used to say *where* in a document something is wrong.
public enum JSONPointer {
    /// Appends an object key to a pointer, escaping `~` and `/`.
    public static func appending(_ token: String, to pointer: String) -> String {
        // Most keys need no escaping, and `replacing` is costly enough to matter when a parser
        // records a pointer for every value of a large document.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return pointer + "/" + token
        }
        return pointer + "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// The key a pointer token names, `~1` and `~0` unescaped.
    public static func unescaped(_ token: Substring) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
    }

    /// Appends an array index to a pointer.
    public static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }

    /// One step down: the member `key` of an object, or the element an array's index names;
    /// nil when there is none.
    public static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        switch value {
        case .object(let object): return object[key]
        case .array(let items):
            // Not `? items[$0] : nil`: JSONValue takes a nil literal as `null`.
            guard let index = Int(key), items.indices.contains(index) else { return nil }
            return items[index]
        default: return nil
        }
    }

    /// The value a pointer names in a document (`""` is the whole document); nil when it
    /// names nothing.
    public static func value(at pointer: String, in document: JSONValue) -> JSONValue? {
        guard !pointer.isEmpty else { return document }
        guard pointer.hasPrefix("/") else { return nil }
        var current = document
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let next = member(unescaped(token), of: current) else { return nil }
            current = next
        }
        return current
    }
}
