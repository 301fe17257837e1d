import MockStackCore

/// One condition of an AutoQuery, evaluated against a row the way the SQL AutoQuery generates
/// evaluates it: a NULL field satisfies no comparison (only `IS NULL`), `=` on text is
/// case-sensitive, the LIKE forms compare upper-cased text, numbers compare as numbers and
/// dates as instants.
public struct QueryCondition: Sendable, Equatable {
    public var field: String
    public var `operator`: QueryConvention.Operator
    /// The operands, already read as the field's type: none for `IS [NOT] NULL`, one for a
    /// comparison, the list for `IN`, two for `BETWEEN`.
    public var values: [DTOValue]

    public init(field: String, operator: QueryConvention.Operator, values: [DTOValue]) {
        self.field = field
        self.operator = `operator`
        self.values = values
    }

    /// Whether `row` satisfies the condition.
    public func matches(_ row: DTOObject) -> Bool {
        matches(value: row[field])
    }

    /// Whether a value of the condition's field satisfies it.
    public func matches(value: DTOValue) -> Bool {
        switch self.operator {
        case .isNull: return value.isNull
        case .isNotNull: return !value.isNull
        default: break
        }
        guard !value.isNull, let first = values.first else { return false }
        switch self.operator {
        case .equal: return SQLOrdering.compare(value, first) == 0
        case .notEqual: return SQLOrdering.compare(value, first).map { $0 != 0 } ?? false
        case .greaterThan: return SQLOrdering.compare(value, first).map { $0 > 0 } ?? false
        case .greaterThanOrEqual: return SQLOrdering.compare(value, first).map { $0 >= 0 } ?? false
        case .lessThan: return SQLOrdering.compare(value, first).map { $0 < 0 } ?? false
        case .lessThanOrEqual: return SQLOrdering.compare(value, first).map { $0 <= 0 } ?? false
        case .in: return values.contains { SQLOrdering.compare(value, $0) == 0 }
        case .between:
            guard values.count == 2, let low = SQLOrdering.compare(value, values[0]),
                let high = SQLOrdering.compare(value, values[1])
            else { return false }
            return low >= 0 && high <= 0
        case .like: return SQLPattern.like(SQLOrdering.text(of: value), pattern: SQLOrdering.text(of: first))
        // The value goes into the pattern as it is, so its own `%` and `_` are wildcards, as in
        // the `UPPER(f) LIKE UPPER('v%')` AutoQuery writes.
        case .startsWith:
            return SQLPattern.like(SQLOrdering.text(of: value), pattern: SQLOrdering.text(of: first) + "%")
        case .contains:
            return SQLPattern.like(SQLOrdering.text(of: value), pattern: "%" + SQLOrdering.text(of: first) + "%")
        case .endsWith: return SQLPattern.like(SQLOrdering.text(of: value), pattern: "%" + SQLOrdering.text(of: first))
        case .overlaps:
            guard case .list(let items) = value else { return false }
            return items.contains { item in values.contains { SQLOrdering.compare(item, $0) == 0 } }
        case .hasAll, .hasAny:
            guard let field = value.intValue, let mask = first.intValue else { return false }
            return self.operator == .hasAll ? mask & field == mask : mask & field > 0
        case .isNull, .isNotNull: return false
        }
    }
}

/// A condition prepared for testing many rows: its LIKE pattern upper-cased once (as bytes
/// too, when it is ASCII), its `IN` list hashed once, and, against a ``ColumnStore``, its
/// field's column (and upper-cased text) looked up once.
struct PreparedCondition {
    let condition: QueryCondition
    private let pattern: [Unicode.Scalar]?
    private let asciiPattern: [UInt8]?
    private let inKeys: Set<String>?
    /// The field's values and upper-cased text, when prepared against a store.
    private let column: [DTOValue]
    private let text: TextColumn?

    init(_ condition: QueryCondition, store: ColumnStore? = nil) {
        self.condition = condition
        let operand = condition.values.first.map(SQLOrdering.text(of:)) ?? ""
        let text: String? =
            switch condition.operator {
            case .like: operand
            case .startsWith: operand + "%"
            case .contains: "%" + operand + "%"
            case .endsWith: "%" + operand
            default: nil
            }
        pattern = text.map { Array($0.uppercased().unicodeScalars) }
        asciiPattern = text.flatMap { SQLPattern.asciiUppercased($0) }
        if condition.operator == .in {
            let keys = condition.values.map(SQLOrdering.key(of:))
            inKeys = keys.contains(nil) ? nil : Set(keys.compactMap { $0 })
        } else {
            inKeys = nil
        }
        // A field the store lacks reads as NULL in every row.
        if let store, let position = store.fields.firstIndex(of: condition.field) {
            column = store.values[position]
            self.text = asciiPattern != nil ? store.text(position) : nil
        } else {
            column = []
            self.text = nil
        }
    }

    /// Whether `row` satisfies the condition; `scratch` is reused between rows for the bytes
    /// of the text a pattern is matched against.
    func matches(_ row: DTOObject, scratch: inout [UInt8]) -> Bool {
        matches(value: row[condition.field], scratch: &scratch)
    }

    /// Whether row `index` of the store the condition was prepared against satisfies it.
    func matches(row index: Int, scratch: inout [UInt8]) -> Bool {
        if let text, let asciiPattern {
            switch text.kinds[index] {
            case .null: return false
            case .ascii:
                return SQLPattern.matches(text.bytes, text.offsets[index]..<text.offsets[index + 1], asciiPattern)
            case .other: break
            }
        }
        return matches(value: index < column.count ? column[index] : .null, scratch: &scratch)
    }

    private func matches(value: DTOValue, scratch: inout [UInt8]) -> Bool {
        if let pattern {
            if value.isNull { return false }
            let text = SQLOrdering.text(of: value)
            if let asciiPattern, SQLPattern.asciiUppercased(text, into: &scratch) {
                return SQLPattern.matches(scratch, 0..<scratch.count, asciiPattern)
            }
            return SQLPattern.matches(Array(text.uppercased().unicodeScalars), pattern)
        }
        if let inKeys {
            return SQLOrdering.key(of: value).map(inKeys.contains) ?? false
        }
        return condition.matches(value: value)
    }
}

/// How SQL orders two non-NULL values of a column.
enum SQLOrdering {
    /// Negative, zero or positive; nil when either side is NULL (SQL's unknown).
    static func compare(_ lhs: DTOValue, _ rhs: DTOValue) -> Int? {
        switch (lhs, rhs) {
        case (.null, _), (_, .null): return nil
        case (.number(let a), .number(let b)):
            if let x = Int(a.literal), let y = Int(b.literal) { return x < y ? -1 : (x == y ? 0 : 1) }
            return order(a.doubleValue, b.doubleValue)
        case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.dateTime(let a), .dateTime(let b)): return order(a.ticks, b.ticks)
        case (.timeSpan(let a), .timeSpan(let b)): return order(a.ticks, b.ticks)
        case (.list, _), (_, .list), (.map, _), (_, .map), (.object, _), (_, .object), (.json, _), (_, .json),
            (.bytes, _), (_, .bytes):
            // No column holds these; a comparison with one is unknown, as with NULL.
            return nil
        default:
            // Text, enum names (stored as text) and Guids: byte order, as a BINARY collation.
            return bytewise(text(of: lhs), text(of: rhs))
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

    /// Text by its UTF-8 bytes (not Swift's canonical equivalence, which a database does not apply).
    static func bytewise(_ a: String, _ b: String) -> Int {
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// A key equal for values SQL finds equal (for hashing `IN` lists); nil for NULL and for
    /// values with no such key.
    static func key(of value: DTOValue) -> String? {
        switch value {
        case .number(let number): Int(number.literal).map { "n\($0)" } ?? "n\(number.doubleValue)"
        case .string(let text), .enumMember(let text), .guid(let text): "s" + text
        case .dateTime(let date): "d\(date.ticks)"
        case .timeSpan(let span): "t\(span.ticks)"
        case .bool(let flag): flag ? "n1" : "n0"
        default: nil
        }
    }

    /// A value as the text a LIKE or a text comparison sees.
    static func text(of value: DTOValue) -> String {
        switch value {
        case .dateTime(let date): date.isoText
        case .timeSpan(let span): span.xsdText
        default: value.text ?? ""
        }
    }
}

/// SQL `LIKE` with `%` and `_`, compared as `UPPER(f) LIKE UPPER(v)` does.
enum SQLPattern {
    static func like(_ text: String, pattern: String) -> Bool {
        matches(Array(text.uppercased().unicodeScalars), Array(pattern.uppercased().unicodeScalars))
    }

    /// Iterative wildcard matching with backtracking to the last `%`: linear in practice and
    /// never recursive, whatever the pattern. Works on code points, as SQL's `_` counts them
    /// (a `\r\n` is two), or on bytes when both sides are ASCII (where upper-casing is a byte
    /// operation and a byte is a code point).
    static func matches(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        matches(text, 0..<text.count, pattern, one: "_", many: "%")
    }

    /// The bytes of `text` in `range` against an upper-cased ASCII pattern.
    static func matches(_ text: [UInt8], _ range: Range<Int>, _ pattern: [UInt8]) -> Bool {
        matches(text, range, pattern, one: UInt8(ascii: "_"), many: UInt8(ascii: "%"))
    }

    private static func matches<Element: Equatable>(
        _ text: [Element], _ range: Range<Int>, _ pattern: [Element], one: Element, many: Element
    ) -> Bool {
        var t = range.lowerBound
        var p = 0
        var starP = -1
        var starT = 0
        while t < range.upperBound {
            if p < pattern.count, pattern[p] == one || (pattern[p] != many && pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == many {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == many { p += 1 }
        return p == pattern.count
    }

    /// The upper-cased bytes of an ASCII text, or nil when it is not ASCII.
    static func asciiUppercased(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        return asciiUppercased(text, into: &bytes) ? bytes : nil
    }

    /// Replaces `bytes` with the upper-cased bytes of `text`; false when it is not ASCII.
    static func asciiUppercased(_ text: String, into bytes: inout [UInt8]) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: text.utf8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte >= 0x80 { return false }
            if byte &- 0x61 < 26 { bytes[index] = byte &- 0x20 }
        }
        return true
    }
}
