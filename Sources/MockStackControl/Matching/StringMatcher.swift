import MockStackCore
import MockStackWire

/// A ``StringPattern`` compiled: its regex (``Pattern``, linear-time) made once, when the stub
/// or verification is read, and run within the request's ``PatternBudget`` so that no pattern
/// over no text can stall the loop that matches it.
struct StringMatcher: Sendable {
    let pattern: StringPattern
    private let regex: Pattern?

    /// - Throws: the regex's problem, for a 400 naming the field.
    init(_ pattern: StringPattern) throws(PatternError) {
        self.pattern = pattern
        if case .matches(let source) = pattern.operator {
            regex = try Pattern(source)
        } else {
            regex = nil
        }
    }

    /// Whether it runs a regex (and so takes steps from a budget).
    var isRegex: Bool { regex != nil }

    /// Whether `value` (nil: not there) matches; a regex takes its steps from `budget`, and one
    /// that runs out of them does not match.
    func matches(_ value: String?, within budget: inout PatternBudget) -> Bool {
        switch pattern.operator {
        case .absent: return value == nil
        case .equalTo(let expected):
            guard let value else { return false }
            return pattern.caseInsensitive ? value.equalsIgnoringASCIICase(expected) : value == expected
        case .contains(let part):
            guard let value else { return false }
            return pattern.caseInsensitive ? value.lowercased().contains(part.lowercased()) : value.contains(part)
        case .matches:
            guard let value, let regex else { return false }
            return regex.wholeMatch(value, within: &budget)
        }
    }
}
