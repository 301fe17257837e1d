public import MockStackCore

/// Parses a query string or a urlencoded body the way Express's "extended" parser (the `qs`
/// package with its defaults) does for a Feathers server (docs/feathers.md#query-strings): `a[b]=c` nests, `a[]=x` and
/// `a[0]=x` make arrays, repeated keys collect into an array, `+` is a space, and every leaf is
/// a string — nothing is converted to a number, boolean or null.
///
/// The limits are qs's: brackets nest at most `depth` levels (the rest of the key stays one
/// literal key), at most `parameterLimit` parameters are read, and an array index above
/// `arrayLimit` makes an object key instead, so `a[999999]=x` cannot allocate a huge array.
public struct QSParser: Sendable {
    public var depth = 5
    public var parameterLimit = 1000
    public var arrayLimit = 20

    public init() {}

    /// The parsed object (empty for an empty string).
    public func parse(_ text: String) -> JSONObject {
        let pairs = pairs(text)
        // Keys without brackets do not nest: each is a member as it is (`__proto__` dropped),
        // what merging their one-member objects one by one comes to.
        if pairs.allSatisfy({ !$0.0.utf8.contains(UInt8(ascii: "[")) }) {
            return Self.json(object: pairs.filter { $0.0 != "__proto__" })
        }
        var merged: Node = .object([])
        for (key, value) in pairs {
            merged = Self.merge(merged, node(forKey: key, value: value))
        }
        guard case .object(let members) = merged else { return JSONObject() }
        return Self.json(object: members)
    }

    // MARK: Pairs

    /// `key=value` pairs, decoded, repeated keys combined into one array value, in first-seen
    /// order. From the first `parameterLimit` `&`-separated parts, the empty ones left out.
    private func pairs(_ text: String) -> [(String, Node)] {
        var pairs = Pairs()
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            // By `Character`s, as `split`, `firstRange(of:)` and `firstIndex(of:)` match them:
            // a combining mark after `&` or `=` makes a character that is neither.
            for part in text.split(separator: "&", omittingEmptySubsequences: false).prefix(parameterLimit)
            where !part.isEmpty {
                // `a[b]=c=d`: the first `]=` ends the key; otherwise the first `=`.
                let split =
                    part.firstRange(of: "]=").map { part.index(after: $0.lowerBound) } ?? part.firstIndex(of: "=")
                pairs.add(
                    Self.decode(split.map { part[..<$0] } ?? part[...]),
                    split.map { Self.decode(part[part.index(after: $0)...]) } ?? "")
            }
            return pairs.all
        }
        // ASCII: by bytes.
        let bytes = Array(text.utf8)
        var start = 0
        for _ in 0..<parameterLimit {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if start < end {
                let part = bytes[start..<end]
                let split = Self.keyEnd(of: part)
                pairs.add(
                    Self.decode(split.map { part[..<$0] } ?? part), split.map { Self.decode(part[($0 + 1)...]) } ?? "")
            }
            guard end < bytes.endIndex else { break }
            start = end + 1
        }
        return pairs.all
    }

    /// Where an ASCII part's key ends: at the `=` of its first `]=`, else at its first `=`.
    private static func keyEnd(of part: ArraySlice<UInt8>) -> Int? {
        var firstEquals: Int?
        var previous: UInt8 = 0
        for index in part.indices {
            let byte = part[index]
            if byte == UInt8(ascii: "=") {
                if previous == UInt8(ascii: "]") { return index }
                if firstEquals == nil { firstEquals = index }
            }
            previous = byte
        }
        return firstEquals
    }

    /// ``decode(_:)-(Substring)`` for ASCII bytes.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return PercentDecoding.decodeStrictly(String(decoding: bytes, as: UTF8.self), plusAsSpace: true)
            ?? String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// Decoded pairs in first-seen order, a repeated key's values combined: found by a scan
    /// while they are few, by a dictionary once there are more.
    private struct Pairs {
        private(set) var all: [(String, Node)] = []
        private var positions: [String: Int] = [:]

        mutating func add(_ key: String, _ value: String) {
            guard !key.isEmpty else { return }
            let position = all.count <= 8 ? all.firstIndex { $0.0 == key } : positions[key]
            if let position {
                all[position].1 = QSParser.combine(all[position].1, .string(value))
                return
            }
            all.append((key, .string(value)))
            if all.count > 8 {
                if positions.isEmpty { for (index, pair) in all.enumerated() { positions[pair.0] = index } }
                positions[key] = all.count - 1
            }
        }
    }

    /// `+` as a space, then percent-decoding; text that does not decode (a bad escape,
    /// bytes that are not UTF-8) stays as it was, spaces aside, as qs leaves it.
    static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        return PercentDecoding.decodeStrictly(text, plusAsSpace: true) ?? String(text.replacing("+", with: " "))
    }

    fileprivate static func combine(_ existing: Node, _ value: Node) -> Node {
        if case .array(let items) = existing { return .array(items + [value]) }
        return .array([existing, value])
    }

    // MARK: Keys

    /// The key split into its parent and bracketed segments (`a[b][c]` → `a`, `[b]`, `[c]`),
    /// at most `depth` of them; from the next segment on, the rest of the key becomes one
    /// literal segment (`[[g][h]]`). A segment is `[` … `]` with no bracket inside.
    func segments(of key: String) -> [String] {
        guard key.utf8.contains(UInt8(ascii: "[")) else { return [key] }
        var matches: [Range<String.Index>] = []
        var cursor = key.startIndex
        while matches.count <= depth, let open = key[cursor...].firstIndex(of: "[") {
            var scan = key.index(after: open)
            while scan < key.endIndex, key[scan] != "[", key[scan] != "]" { scan = key.index(after: scan) }
            guard scan < key.endIndex else { break }
            if key[scan] == "]" {
                matches.append(open..<key.index(after: scan))
                cursor = key.index(after: scan)
            } else {
                cursor = scan
            }
        }
        guard let first = matches.first else { return [key] }
        var segments = first.lowerBound > key.startIndex ? [String(key[..<first.lowerBound])] : []
        segments += matches.prefix(depth).map { String(key[$0]) }
        if matches.count > depth { segments.append("[" + key[matches[depth].lowerBound...] + "]") }
        return segments
    }

    /// The value nested under the key's segments, innermost first.
    private func node(forKey key: String, value: Node) -> Node {
        var leaf = value
        for segment in segments(of: key).reversed() {
            if segment == "[]" {
                leaf = .array(Self.elements(of: leaf))
                continue
            }
            let bracketed = segment.hasPrefix("[") && segment.hasSuffix("]") && segment.count >= 2
            let name = bracketed ? String(segment.dropFirst().dropLast()) : segment
            if bracketed, let index = Int(name), index >= 0, String(index) == name, index <= arrayLimit {
                // `[3]`: a sparse array, compacted at the end.
                leaf = .array(Array(repeating: nil, count: index) + [leaf])
            } else if name == "__proto__" {
                leaf = .object([])
            } else {
                leaf = .object([(name, leaf)])
            }
        }
        return leaf
    }

    private static func elements(of node: Node) -> [Node?] {
        if case .array(let items) = node { return items }
        return [node]
    }

    // MARK: Merging

    /// qs's merge: objects merge key by key, arrays by index (an object element merges into
    /// the object at that index, anything else is appended), an array meeting an object
    /// becomes an object keyed by index, and two leaves make an array.
    private static func merge(_ target: Node?, _ source: Node?) -> Node {
        guard let source else { return target ?? .object([]) }
        guard let target else { return source }
        switch (target, source) {
        case (.array(var items), .array(let incoming)):
            for (index, item) in incoming.enumerated() {
                guard let item else { continue }
                if index < items.count, let existing = items[index] {
                    if existing.isContainer, item.isContainer {
                        items[index] = merge(existing, item)
                    } else {
                        items.append(item)
                    }
                } else if index < items.count {
                    items[index] = item
                } else {
                    items += Array(repeating: nil, count: index - items.count) + [item]
                }
            }
            return .array(items)
        case (.array(let items), .object):
            return merge(.object(indexed(items)), source)
        case (.object, .array(let items)):
            return merge(target, .object(indexed(items)))
        case (.object(var members), .object(let incoming)):
            for (key, value) in incoming {
                if let position = members.firstIndex(where: { $0.0 == key }) {
                    members[position].1 = merge(members[position].1, value)
                } else {
                    members.append((key, value))
                }
            }
            return .object(members)
        case (.array(var items), .string):
            items.append(source)
            return .array(items)
        case (.object(var members), .string(let key)):
            // qs sets a bare leaf merged into an object as a key with value `true`; every
            // value here is text, so it is the string "true" (Unverified path).
            if !members.contains(where: { $0.0 == key }) { members.append((key, .string("true"))) }
            return .object(members)
        case (.string, .array(let items)):
            return .array([target] + items)
        case (.string, _):
            return .array([target, source])
        }
    }

    private static func indexed(_ items: [Node?]) -> [(String, Node)] {
        items.enumerated().compactMap { index, item in item.map { (String(index), $0) } }
    }

    // MARK: Output

    /// Objects list integer-like keys first, ascending, then the rest in insertion order (as a
    /// JavaScript object does); arrays drop their holes.
    private static func json(object members: [(String, Node)]) -> JSONObject {
        let indices = members.compactMap { key, node in arrayIndex(key).map { ($0, key, node) } }.sorted { $0.0 < $1.0 }
        let others = members.filter { arrayIndex($0.0) == nil }
        return JSONObject(
            indices.map { (key: $0.1, value: json($0.2)) } + others.map { (key: $0.0, value: json($0.1)) })
    }

    private static func json(_ node: Node) -> JSONValue {
        switch node {
        case .string(let text): .string(text)
        case .array(let items): .array(items.compactMap { $0.map(json) })
        case .object(let members): .object(json(object: members))
        }
    }

    /// A canonical array index as JavaScript orders object keys: `0`, `12`, not `012` or `-1`.
    private static func arrayIndex(_ key: String) -> UInt32? { MemoryStore.integerKey(key) }

    /// A parsed value before holes are compacted: text, a (possibly sparse) array, or an
    /// object with ordered keys.
    indirect enum Node {
        case string(String)
        case array([Node?])
        case object([(String, Node)])

        var isContainer: Bool {
            if case .string = self { return false }
            return true
        }
    }
}
