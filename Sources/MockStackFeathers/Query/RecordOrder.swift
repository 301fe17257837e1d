public import MockStackCore

/// `$sort` as the memory adapter applies it (docs/feathers.md#filters-and-sorting): keys in order, `1` ascending, `-1`
/// descending, `0` no ordering, dotted paths; values of different types order as missing <
/// null < numbers < strings < booleans < arrays < objects; strings by UTF-16 code units, as
/// JavaScript compares them. The sort is stable.
public enum RecordOrder {
    public static func sorted(_ records: [JSONObject], by keys: [(key: String, direction: Double)]) -> [JSONObject] {
        records.enumerated().sorted { left, right in
            for (key, direction) in keys {
                // A NaN direction makes JavaScript's comparator answer NaN, read as "equal", and stop.
                guard !direction.isNaN else { break }
                let order =
                    Double(
                        compare(RecordMatcher.field(key, of: left.element), RecordMatcher.field(key, of: right.element))
                    ) * direction
                if order != 0 { return order < 0 }
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// adapter-commons' `compare`: -1, 0 or 1.
    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        guard let a else { return b == nil ? 0 : -1 }
        guard let b else { return 1 }
        let ranks = (rank(a), rank(b))
        if ranks.0 != ranks.1 { return ranks.0 < ranks.1 ? -1 : 1 }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x.doubleValue < y.doubleValue ? -1 : x.doubleValue > y.doubleValue ? 1 : 0
        case (.string(let x), .string(let y)): return compareText(x, y)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : x ? 1 : -1
        case (.array(let x), .array(let y)):
            for (left, right) in zip(x, y) {
                let order = compare(left, right)
                if order != 0 { return order }
            }
            return x.count < y.count ? -1 : x.count > y.count ? 1 : 0
        case (.object(let x), .object(let y)):
            // Keys sorted, then compared as arrays of keys and of values.
            let left = x.members.sorted { compareText($0.key, $1.key) < 0 }
            let right = y.members.sorted { compareText($0.key, $1.key) < 0 }
            let keys = compare(.array(left.map { .string($0.key) }), .array(right.map { .string($0.key) }))
            return keys != 0 ? keys : compare(.array(left.map(\.value)), .array(right.map(\.value)))
        default: return 0
        }
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: 0
        case .number: 1
        case .string: 2
        case .bool: 3
        case .array: 4
        case .object: 5
        }
    }

    /// JavaScript's `<` on strings: UTF-16 code unit order.
    static func compareText(_ a: String, _ b: String) -> Int {
        a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : a.utf16.elementsEqual(b.utf16) ? 0 : 1
    }
}
