public import MockStackCore

/// Whether a record matches query conditions, as the memory adapter's matcher (sift) decides
/// (docs/feathers.md#filters-and-sorting): properties are AND-ed, equality is strict (`"30"` never equals `30`), the
/// comparisons need both sides of the same type, `$or`/`$and` take lists of sub-queries, a
/// dotted key reads a nested field, and an array field matches when any element does.
public enum RecordMatcher {
    public static func matches(_ record: JSONObject, _ conditions: JSONObject) -> Bool {
        conditions.allSatisfy { key, condition in
            switch key {
            case "$or": return subqueries(condition).contains { matches(record, $0) }
            case "$and": return subqueries(condition).allSatisfy { matches(record, $0) }
            default: return satisfies(field(key, of: record), condition)
            }
        }
    }

    /// ``matches(_:_:)`` for testing many records against the same conditions. When every
    /// condition is a plain key (no dots, not `$or` or `$and`) and a value that is not an
    /// object, as in `?name=x&age=3`, each is an equality test on the record's own member,
    /// without the general matcher's dispatch for every record.
    public static func predicate(_ conditions: JSONObject) -> (JSONObject) -> Bool {
        let plain = conditions.members.allSatisfy { key, condition in
            key != "$or" && key != "$and" && !key.utf8.contains(UInt8(ascii: ".")) && condition.objectValue == nil
        }
        guard plain else { return { matches($0, conditions) } }
        let tests = conditions.members
        return { record in
            for (key, condition) in tests where !equals(lastValue(key, in: record.members), condition) { return false }
            return true
        }
    }

    /// The value of the last member named `key`, as `JSONObject`'s subscript reads it.
    private static func lastValue(_ key: String, in members: [JSONObject.Member]) -> JSONValue? {
        var index = members.endIndex
        while index > members.startIndex {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }

    private static func subqueries(_ value: JSONValue) -> [JSONObject] {
        switch value {
        case .array(let items): items.compactMap(\.objectValue)
        case .object(let object): [object]
        default: []
        }
    }

    /// A field by dotted path; nil when absent (JavaScript's `undefined`).
    static func field(_ path: String, of record: JSONObject) -> JSONValue? {
        if let direct = record[path] { return direct }
        guard path.contains(".") else { return nil }
        var current: JSONValue = .object(record)
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let object) = current, let next = object[String(part)] else { return nil }
            current = next
        }
        return current
    }

    /// A value against a condition: an object of operators, or a value it must equal.
    private static func satisfies(_ value: JSONValue?, _ condition: JSONValue) -> Bool {
        if case .object(let operators) = condition, !operators.members.isEmpty,
            operators.members.allSatisfy({ $0.key.hasPrefix("$") })
        {
            return operators.allSatisfy { name, argument in apply(name, argument, to: value) }
        }
        return equals(value, condition)
    }

    private static func apply(_ name: String, _ argument: JSONValue, to value: JSONValue?) -> Bool {
        switch name {
        case "$in": return options(argument).contains { equals(value, $0) }
        case "$nin": return !options(argument).contains { equals(value, $0) }
        case "$ne": return !equals(value, argument)
        case "$lt": return compares(value, argument) { $0 < 0 }
        case "$lte": return compares(value, argument) { $0 <= 0 }
        case "$gt": return compares(value, argument) { $0 > 0 }
        case "$gte": return compares(value, argument) { $0 >= 0 }
        case "$or":
            return subqueries(argument).contains { sub in value.flatMap(\.objectValue).map { matches($0, sub) } ?? false
            }
        default: return false
        }
    }

    private static func options(_ argument: JSONValue) -> [JSONValue] {
        if case .array(let items) = argument { return items }
        return [argument]
    }

    /// Strict equality; an array field equals a scalar when one of its elements does.
    static func equals(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
        // As in MongoDB queries, `null` also matches a missing field.
        guard let value else { return expected == .null }
        if case .string(let text) = value, case .string(let other) = expected { return text == other }
        if value == expected || numbersEqual(value, expected) { return true }
        if case .array(let items) = value, !isArray(expected) {
            return items.contains { $0 == expected || numbersEqual($0, expected) }
        }
        return false
    }

    private static func isArray(_ value: JSONValue) -> Bool {
        if case .array = value { return true }
        return false
    }

    private static func numbersEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return x.doubleValue == y.doubleValue }
        return false
    }

    /// An ordering test between values of the same JSON type (numbers, strings, booleans);
    /// anything else never matches. An array field matches when an element does.
    private static func compares(_ value: JSONValue?, _ bound: JSONValue, _ test: (Int) -> Bool) -> Bool {
        guard let value else { return false }
        if case .array(let items) = value { return items.contains { compares($0, bound, test) } }
        switch (value, bound) {
        case (.number(let a), .number(let b)):
            return a.doubleValue.isNaN || b.doubleValue.isNaN
                ? false : test(a.doubleValue < b.doubleValue ? -1 : a.doubleValue > b.doubleValue ? 1 : 0)
        case (.string(let a), .string(let b)): return test(RecordOrder.compareText(a, b))
        case (.bool(let a), .bool(let b)): return test(a == b ? 0 : a ? 1 : -1)
        default: return false
        }
    }
}
