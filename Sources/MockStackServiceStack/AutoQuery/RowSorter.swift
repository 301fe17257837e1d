import MockStackCore

/// `ORDER BY` over the rows a query matched: order keys are values that compare without parsing
/// or allocating (built once per column by the store), and when only a page is wanted it is
/// picked with a bounded heap (n log k) instead of sorting every match (n log n).
///
/// Comparisons follow ``SQLOrdering``: NULL first ascending (last descending), numbers as
/// numbers, dates and times by ticks, text by bytes. Rows equal on every key keep the order
/// they were matched in, as a stable sort would.
struct RowSorter {
    enum Key {
        case null
        case integer(Int64)
        case real(Double)
        case flag(Bool)
        case instant(Int64)
        case duration(Int64)
        case text(String)
        /// Lists, maps and objects: no column holds them; they compare equal to everything.
        case unordered
    }

    private let matching: [Int]
    private let descending: [Bool]
    /// Each order field's keys, for every row of the store.
    private let keyColumns: [[Key]]
    /// Each order field's values, for the rare comparison keys cannot settle (a number
    /// against text in an untyped column).
    private let valueColumns: [[DTOValue]]

    /// - Parameters:
    ///   - store: the data set;
    ///   - matching: indices of the rows to order;
    ///   - keys: the position of each order field, and whether it is descending.
    init(store: ColumnStore, matching: [Int], keys orderKeys: [(position: Int, descending: Bool)]) {
        self.matching = matching
        descending = orderKeys.map(\.descending)
        keyColumns = orderKeys.map { store.keys($0.position) }
        valueColumns = orderKeys.map { store.values[$0.position] }
    }

    /// The indices of the first `count` rows in order (all of them when there are fewer).
    func first(_ count: Int) -> [Int] {
        let all = matching.count
        if count <= 0 || all == 0 { return [] }
        var order: [Int]
        if count >= all {
            order = Array(0..<all)
            order.sort(by: precedes)
        } else {
            order = smallest(count)
        }
        return order.map { matching[$0] }
    }

    /// The `count` first positions, in order: a max-heap keeps the best `count` seen so far.
    private func smallest(_ count: Int) -> [Int] {
        var heap: [Int] = []
        heap.reserveCapacity(count)
        for candidate in 0..<matching.count {
            if heap.count < count {
                heap.append(candidate)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard precedes(heap[parent], heap[child]) else { break }
                    heap.swapAt(parent, child)
                    child = parent
                }
            } else if precedes(candidate, heap[0]) {
                heap[0] = candidate
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    let right = left + 1
                    var last = parent
                    if left < heap.count, precedes(heap[last], heap[left]) { last = left }
                    if right < heap.count, precedes(heap[last], heap[right]) { last = right }
                    if last == parent { break }
                    heap.swapAt(parent, last)
                    parent = last
                }
            }
        }
        heap.sort(by: precedes)
        return heap
    }

    /// Whether the row at position `a` of the matches comes before the one at `b`.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let rowA = matching[a]
        let rowB = matching[b]
        for index in keyColumns.indices {
            let comparison =
                Self.compare(keyColumns[index][rowA], keyColumns[index][rowB])
                ?? SQLOrdering.compare(valueColumns[index][rowA], valueColumns[index][rowB]) ?? 0
            if comparison != 0 { return descending[index] ? comparison > 0 : comparison < 0 }
        }
        return a < b
    }

    static func key(of value: DTOValue) -> Key {
        switch value {
        case .null: .null
        case .number(let number): Int64(number.literal).map(Key.integer) ?? .real(number.doubleValue)
        case .bool(let flag): .flag(flag)
        case .dateTime(let date): .instant(date.ticks)
        case .timeSpan(let span): .duration(span.ticks)
        case .string(let text), .enumMember(let text), .guid(let text): .text(text)
        case .list, .map, .object, .json, .bytes: .unordered
        }
    }

    /// The order of two keys; nil for keys of different kinds, which ``SQLOrdering`` settles
    /// from the values.
    static func compare(_ lhs: Key, _ rhs: Key) -> Int? {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return order(Double(a), b)
        case (.real(let a), .integer(let b)): return order(a, Double(b))
        case (.real(let a), .real(let b)): return order(a, b)
        case (.flag(let a), .flag(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.instant(let a), .instant(let b)), (.duration(let a), .duration(let b)): return order(a, b)
        case (.text(let a), .text(let b)): return SQLOrdering.bytewise(a, b)
        case (.unordered, _), (_, .unordered): return 0
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
}
