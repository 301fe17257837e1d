import MockStackCore
import MockStackWire

/// A ``StringPattern`` compiled: its regex (``Pattern``, linear-time, so no pattern can stall
/// the loop that matches it) made once, when the stub or verification is read.
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

    /// Whether `value` (nil: not there) matches.
    func matches(_ value: String?) -> Bool {
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
            return regex.wholeMatch(value)
        }
    }
}
