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
        let value = row[field]
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
            guard values.count == 2, let low = SQLOrdering.compare(value, values[0]), let high = SQLOrdering.compare(value, values[1]) else { return false }
            return low >= 0 && high <= 0
        case .like: return SQLPattern.like(SQLOrdering.text(of: value), pattern: SQLOrdering.text(of: first))
        // The value goes into the pattern as it is, so its own `%` and `_` are wildcards, as in
        // the `UPPER(f) LIKE UPPER('v%')` AutoQuery writes.
        case .startsWith: return SQLPattern.like(SQLOrdering.text(of: value), pattern: SQLOrdering.text(of: first) + "%")
        case .contains: return SQLPattern.like(SQLOrdering.text(of: value), pattern: "%" + SQLOrdering.text(of: first) + "%")
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

/// A condition prepared for testing many rows: its LIKE pattern upper-cased once, its `IN` list
/// hashed once.
struct PreparedCondition {
    let condition: QueryCondition
    private let pattern: [Character]?
    private let inKeys: Set<String>?

    init(_ condition: QueryCondition) {
        self.condition = condition
        let operand = condition.values.first.map(SQLOrdering.text(of:)) ?? ""
        switch condition.operator {
        case .like: pattern = Array(operand.uppercased())
        case .startsWith: pattern = Array((operand + "%").uppercased())
        case .contains: pattern = Array(("%" + operand + "%").uppercased())
        case .endsWith: pattern = Array(("%" + operand).uppercased())
        default: pattern = nil
        }
        if condition.operator == .in {
            let keys = condition.values.map(SQLOrdering.key(of:))
            inKeys = keys.contains(nil) ? nil : Set(keys.compactMap { $0 })
        } else {
            inKeys = nil
        }
    }

    func matches(_ row: DTOObject) -> Bool {
        if let pattern {
            let value = row[condition.field]
            return !value.isNull && SQLPattern.matches(Array(SQLOrdering.text(of: value).uppercased()), pattern)
        }
        if let inKeys {
            return SQLOrdering.key(of: row[condition.field]).map(inKeys.contains) ?? false
        }
        return condition.matches(row)
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
        case (.list, _), (_, .list), (.map, _), (_, .map), (.object, _), (_, .object), (.json, _), (_, .json), (.bytes, _), (_, .bytes):
            // No column holds these; a comparison with one is unknown, as with NULL.
            return nil
        default:
            // Text, enum names (stored as text) and Guids: byte order, as a BINARY collation.
            let a = Array(text(of: lhs).utf8), b = Array(text(of: rhs).utf8)
            return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

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
        matches(Array(text.uppercased()), Array(pattern.uppercased()))
    }

    /// Iterative wildcard matching with backtracking to the last `%`: linear in practice and
    /// never recursive, whatever the pattern.
    static func matches(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "_" || (pattern[p] != "%" && pattern[p] == text[t]) {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "%" {
                starP = p; starT = t; p += 1
            } else if starP >= 0 {
                p = starP + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "%" { p += 1 }
        return p == pattern.count
    }
}
