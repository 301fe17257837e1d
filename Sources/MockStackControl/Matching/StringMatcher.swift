import MockStackCore
import MockStackWire

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
    }

    /// - Throws: a regex's problem, for a 400 naming the field.
    init(_ pattern: StringPattern) throws(PatternError) {
        self.pattern = pattern
        switch pattern.operator {
        case .matches(let source): node = .plain(regex: try Pattern(source))
        case .and(let parts): node = .all(try Self.compiled(parts))
        case .or(let parts): node = .any(try Self.compiled(parts))
        case .not(let inner): node = .not(try StringMatcher(inner))
        case .equalTo, .contains, .absent: node = .plain(regex: nil)
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
        case .all(let parts), .any(let parts): parts.contains(where: \.isRegex)
        case .not(let inner): inner.isRegex
        }
    }

    /// Whether `value` (nil: not there) matches; a regex takes its steps from `budget`, and one
    /// that runs out of them does not match (nor does a `not` over it: a cut-short match proves
    /// nothing).
    func matches(_ value: String?, within budget: inout PatternBudget) -> Bool {
        switch node {
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
            default:
                guard let value, let regex else { return false }
                return regex.wholeMatch(value, within: &budget)
            }
        }
    }
}
