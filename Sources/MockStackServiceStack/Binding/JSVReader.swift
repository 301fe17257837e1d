import MockStackCore

/// Reads ServiceStack's JSV notation, the format of query-string and form values:
/// `A,B,C`, `[A,B,C]`, `{A:D,B:E}`, `{id:1,name:foo}`, with `"…"` quoting for values holding
/// `,` `"` `:` `{` `}` `[` `]` or line breaks (JSV doubles an inner `"`; Swift sends `\"`:
/// both are read).
enum JSVNode: Equatable {
    case text(String)
    case list([JSVNode])
    case map([(key: String, value: JSVNode)])

    static func == (lhs: JSVNode, rhs: JSVNode) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.map(let a), .map(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

extension JSVNode {
    /// The node written back as JSV, for error messages (`'…' is an Invalid value`): text as it
    /// was read (unquoted), lists as `[a,b]`, maps as `{k:v}`.
    var jsvText: String {
        switch self {
        case .text(let text): text
        case .list(let nodes): "[" + nodes.map(\.jsvText).joined(separator: ",") + "]"
        case .map(let members): "{" + members.map { $0.key + ":" + $0.value.jsvText }.joined(separator: ",") + "}"
        }
    }
}

struct JSVReader {
    private let bytes: [UInt8]
    private var index = 0
    /// Nesting limit, so hostile input cannot exhaust the stack.
    private let maximumDepth = 64
    /// Values read so far, refused past the limit JSON request bodies have: a field of
    /// 8 million `1,` is millions of nodes otherwise.
    private var valueCount = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// Reads a whole value; `nil` when the text is not well-formed JSV.
    static func read(_ text: String) -> JSVNode? {
        var reader = JSVReader(text)
        guard let node = reader.value(depth: 0) else { return nil }
        return reader.index == reader.bytes.count ? node : nil
    }

    /// Reads a list written with or without brackets (`[A,B]` or `A,B`); a lone empty text is
    /// an empty list.
    static func readList(_ text: String) -> [JSVNode]? {
        let trimmed = text.trimmingASCIISpace()
        if trimmed.hasPrefix("[") {
            guard case .list(let elements)? = read(String(trimmed)) else { return nil }
            return elements
        }
        if trimmed.isEmpty { return [] }
        var reader = JSVReader(String(trimmed))
        var elements: [JSVNode] = []
        repeat {
            guard let element = reader.value(depth: 1, terminators: [UInt8(ascii: ",")]) else { return nil }
            elements.append(element)
        } while reader.consume(UInt8(ascii: ","))
        return reader.index == reader.bytes.count ? elements : nil
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int, terminators: Set<UInt8> = []) -> JSVNode? {
        guard depth < maximumDepth, valueCount < JSONParser.requestBodyValueLimit else { return nil }
        valueCount += 1
        guard index < bytes.count else { return .text("") }
        switch bytes[index] {
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSVNode] = []
            if consume(UInt8(ascii: "]")) { return .list([]) }
            repeat {
                guard let element = value(depth: depth + 1, terminators: [UInt8(ascii: ","), UInt8(ascii: "]")]) else {
                    return nil
                }
                elements.append(element)
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .list(elements) : nil
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSVNode)] = []
            if consume(UInt8(ascii: "}")) { return .map([]) }
            repeat {
                guard case .text(let key)? = scalar(terminators: [UInt8(ascii: ":")]), consume(UInt8(ascii: ":")),
                    let member = value(depth: depth + 1, terminators: [UInt8(ascii: ","), UInt8(ascii: "}")])
                else { return nil }
                members.append((key, member))
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .map(members) : nil
        default:
            return scalar(terminators: terminators)
        }
    }

    /// A quoted or bare scalar, ending before any of `terminators`.
    private mutating func scalar(terminators: Set<UInt8>) -> JSVNode? {
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            var output: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                    output.append(UInt8(ascii: "\""))
                    index += 2
                } else if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        output.append(UInt8(ascii: "\""))
                        index += 2
                    } else {
                        index += 1
                        return .text(String(decoding: output, as: UTF8.self))
                    }
                } else {
                    output.append(byte)
                    index += 1
                }
            }
            return nil
        }
        let start = index
        while index < bytes.count, !terminators.contains(bytes[index]) { index += 1 }
        return .text(String(decoding: bytes[start..<index], as: UTF8.self))
    }
}
