import MockStackCore
import MockStackWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``StringPattern`` compiled: its regexes (``Pattern``, linear-time) made once, when the stub
/// or verification is read, and run within the request's ``PatternBudget`` so that no pattern
/// over no text can stall the loop that matches it. Combined patterns (`and`, `or`, `not`) are
/// compiled part by part; their size is bounded when they are read.
struct StringMatcher: Sendable {
    let pattern: StringPattern
    private let node: Node

    private indirect enum Node: Sendable {
        case plain(regex: Pattern?)
        case all([StringMatcher])
        case any([StringMatcher])
        case not(StringMatcher)
        /// A value list's patterns: `exactly`, one value each and no value left, else each a value.
        case values(exactly: Bool, [StringMatcher])
    }

    /// - Throws: a regex's problem, for a 400 naming the field.
    init(_ pattern: StringPattern) throws(PatternError) {
        self.pattern = pattern
        switch pattern.operator {
        case .matches(let source): node = .plain(regex: try Pattern(source))
        case .and(let parts): node = .all(try Self.compiled(parts))
        case .or(let parts): node = .any(try Self.compiled(parts))
        case .not(let inner): node = .not(try StringMatcher(inner))
        case .hasExactly(let parts): node = .values(exactly: true, try Self.compiled(parts))
        case .includes(let parts): node = .values(exactly: false, try Self.compiled(parts))
        case .equalTo, .contains, .absent, .before, .after, .equalToDateTime: node = .plain(regex: nil)
        }
    }

    private static func compiled(_ patterns: [StringPattern]) throws(PatternError) -> [StringMatcher] {
        var matchers: [StringMatcher] = []
        for pattern in patterns { matchers.append(try StringMatcher(pattern)) }
        return matchers
    }

    /// Whether it runs a regex (and so takes steps from a budget).
    var isRegex: Bool {
        switch node {
        case .plain(let regex): regex != nil
        case .all(let parts), .any(let parts), .values(_, let parts): parts.contains(where: \.isRegex)
        case .not(let inner): inner.isRegex
        }
    }

    /// Whether `value` (nil: not there) matches; a regex takes its steps from `budget`, and one
    /// that runs out of them does not match (nor does a `not` over it: a cut-short match proves
    /// nothing).
    func matches(_ value: String?, within budget: inout PatternBudget) -> Bool {
        switch node {
        case .values:
            return matches(values: value.map { [$0] } ?? [], within: &budget)
        case .all(let parts):
            for part in parts where !part.matches(value, within: &budget) { return false }
            return true
        case .any(let parts):
            for part in parts where part.matches(value, within: &budget) { return true }
            return false
        case .not(let inner):
            let matched = inner.matches(value, within: &budget)
            return !matched && !(inner.isRegex && budget.isSpent)
        case .plain(let regex):
            switch pattern.operator {
            case .absent: return value == nil
            case .equalTo(let expected):
                guard let value else { return false }
                return pattern.caseInsensitive ? value.equalsIgnoringASCIICase(expected) : value == expected
            case .contains(let part):
                guard let value else { return false }
                return pattern.caseInsensitive ? value.lowercased().contains(part.lowercased()) : value.contains(part)
            case .before(let moment):
                guard let date = value.flatMap(Moment.date(in:)) else { return false }
                return date < moment.resolved(now: Date())
            case .after(let moment):
                guard let date = value.flatMap(Moment.date(in:)) else { return false }
                return date > moment.resolved(now: Date())
            case .equalToDateTime(let moment):
                guard let date = value.flatMap(Moment.date(in:)) else { return false }
                return Int(date.timeIntervalSince1970.rounded(.down))
                    == Int(moment.resolved(now: Date()).timeIntervalSince1970.rounded(.down))
            default:
                guard let value, let regex else { return false }
                return regex.wholeMatch(value, within: &budget)
            }
        }
    }

    /// Whether a name's values (none: not there) match. A value list compares them all; any
    /// other pattern the one value a lone pattern reads (the caller's choice of first or last).
    func matches(values: [String], within budget: inout PatternBudget) -> Bool {
        guard case .values(let exactly, let parts) = node else { return matches(values.last, within: &budget) }
        guard exactly else {
            for part in parts where !values.contains(where: { part.matches($0, within: &budget) }) { return false }
            return true
        }
        guard values.count == parts.count else { return false }
        return Self.pairsEveryone(parts, values, within: &budget)
    }

    /// Whether each pattern can be given a value of its own that it matches, every value taken
    /// (a bipartite matching, by augmenting paths: a value first taken by a pattern that another
    /// value would also do is handed over). Both lists are at most ``StringPattern/maximumParts``.
    private static func pairsEveryone(
        _ parts: [StringMatcher], _ values: [String], within budget: inout PatternBudget
    ) -> Bool {
        var fits = [[Bool]](repeating: [Bool](repeating: false, count: values.count), count: parts.count)
        for (row, part) in parts.enumerated() {
            for (column, value) in values.enumerated() { fits[row][column] = part.matches(value, within: &budget) }
        }
        var holder = [Int?](repeating: nil, count: values.count)
        func place(_ row: Int, _ seen: inout [Bool]) -> Bool {
            for column in values.indices where fits[row][column] && !seen[column] {
                seen[column] = true
                if let other = holder[column] {
                    guard place(other, &seen) else { continue }
                }
                holder[column] = row
                return true
            }
            return false
        }
        for row in parts.indices {
            var seen = [Bool](repeating: false, count: values.count)
            guard place(row, &seen) else { return false }
        }
        return true
    }
}
