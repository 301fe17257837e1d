/// A set of Unicode scalar values kept as sorted, disjoint, non-adjacent ranges: a character
/// class, `.`, or one of `\d \w \s` and their negations.
struct ScalarSet: Sendable, Equatable {
    private(set) var ranges: [ClosedRange<UInt32>]

    /// The union of `ranges`, in any order, overlapping or not.
    init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    static let largest: UInt32 = 0x10FFFF

    /// `\d`: ASCII digits, as RE2 and ECMAScript read it.
    static let digits = ScalarSet([0x30...0x39])
    /// `\w`: ASCII letters, digits and `_`.
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: tab, line feed, vertical tab, form feed, carriage return and space.
    static let space = ScalarSet([0x09...0x0D, 0x20...0x20])
    /// `.`: any scalar but a line feed or carriage return.
    static let anyButLineBreak = ScalarSet([0x0A...0x0A, 0x0D...0x0D]).inverted

    /// Every scalar value this set does not hold.
    var inverted: ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= Self.largest { result.append(next...Self.largest) }
        return ScalarSet(result)
    }

    func union(_ other: ScalarSet) -> ScalarSet { ScalarSet(ranges + other.ranges) }

    /// Whether the set holds `value` (a binary search over the ranges).
    func contains(_ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}
