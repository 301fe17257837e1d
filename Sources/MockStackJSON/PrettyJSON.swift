/// JSON written for people to read and edit (recorded manifests and seed files, exported
/// stubs): two-space indents, one member or item a line, key order and number literals kept.
public enum PrettyJSON {
    /// The value's text, with a line break at the end.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        let inner = [UInt8](repeating: UInt8(ascii: " "), count: (indent + 1) * 2)
        let closing = [UInt8](repeating: UInt8(ascii: " "), count: indent * 2)
        switch value {
        case .object(let object) where !object.isEmpty:
            out.append(contentsOf: "{\n".utf8)
            for (index, member) in object.members.enumerated() {
                out.append(contentsOf: inner)
                JSONValue.string(member.key).encode(into: &out)
                out.append(contentsOf: ": ".utf8)
                write(member.value, indent: indent + 1, into: &out)
                out.append(contentsOf: (index == object.count - 1 ? "\n" : ",\n").utf8)
            }
            out.append(contentsOf: closing)
            out.append(UInt8(ascii: "}"))
        case .array(let items) where !items.isEmpty:
            out.append(contentsOf: "[\n".utf8)
            for (index, item) in items.enumerated() {
                out.append(contentsOf: inner)
                write(item, indent: indent + 1, into: &out)
                out.append(contentsOf: (index == items.count - 1 ? "\n" : ",\n").utf8)
            }
            out.append(contentsOf: closing)
            out.append(UInt8(ascii: "]"))
        default:
            value.encode(into: &out)
        }
    }
}
