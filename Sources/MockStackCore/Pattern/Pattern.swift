/// A regular expression matched in linear time: O(pattern × text), whatever the pattern and
/// the text, so a stub's `pathRegex` or a fixture's `Matches` rule cannot stall a loop
/// (`(a+)+b` on a path of a few dozen `a`s takes a backtracking matcher such as Swift's
/// `Regex` time exponential in the path's length).
///
/// The syntax is the part of RE2's and ECMAScript's that they share and a path or a field
/// check needs: literals and escapes (`\.`, `\/`, `\t`, `\xHH`, `\uHHHH`), `.` (anything but
/// a line break), classes (`[a-z0-9_-]`, `[^/]`), `\d \w \s \D \W \S` (ASCII, as in RE2),
/// anchors `^ $`, groups `( )`, `(?: )` and named ones (nothing is captured), alternation `|`,
/// and the quantifiers `* + ? {n} {n,} {n,m}` with their lazy forms (the same texts match).
/// Backreferences, lookaround, possessive quantifiers, atomic groups, inline options, word
/// boundaries, Unicode properties and the rest are refused by name (``PatternError``), as is a
/// pattern compiling to more than ``maximumInstructions`` instructions. Matching is over
/// Unicode scalars.
///
/// Why not RE2 itself: Debian's `libre2-dev` would make every package that builds mockstack
/// (client libraries' CI among them) install a second C++ system library and compile a C++
/// shim to reach it from Swift, for a subset this small. The parser, the Thompson compiler and
/// the Pike VM here are a few hundred lines of plain Swift.
public struct Pattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    let program: PatternProgram

    /// The largest compiled program accepted: each instruction can cost one step per scalar of
    /// the text, so this bounds a match's work at about a thousand steps per scalar.
    public static let maximumInstructions = 1_000
    /// The longest source accepted, in Unicode scalars.
    public static let maximumLength = 4_096

    /// Compiles `source`.
    /// - Throws: ``PatternError``, naming the construct or the mistake and where it is.
    public init(_ source: String) throws(PatternError) {
        let length = source.unicodeScalars.count
        guard length <= Self.maximumLength else {
            throw PatternError(
                .tooLarge("the pattern is \(length) characters long, more than \(Self.maximumLength)"), at: 0,
                excerpt: "")
        }
        var parser = PatternParser(source)
        program = try PatternProgram(try parser.parse(), limit: Self.maximumInstructions)
        self.source = source
    }

    /// Whether the whole of `text` matches (Swift's `wholeMatch`), within a budget of its own
    /// (``PatternBudget/perRequest``): a run out of steps counts as no match.
    public func wholeMatch(_ text: String) -> Bool {
        var budget = PatternBudget()
        return wholeMatch(text, within: &budget)
    }

    /// Whether some part of `text` matches (.NET's `Regex.IsMatch`, Swift's `contains`), within
    /// a budget of its own (``PatternBudget/perRequest``): a run out of steps counts as no match.
    public func occurs(in text: String) -> Bool {
        var budget = PatternBudget()
        return occurs(in: text, within: &budget)
    }

    /// Whether the whole of `text` matches, taking the steps from `budget`; a run out of steps
    /// counts as no match and marks the budget ``PatternBudget/isSpent``.
    public func wholeMatch(_ text: String, within budget: inout PatternBudget) -> Bool {
        run(Substring(text), whole: true, within: &budget)
    }

    /// Whether some part of `text` matches, taking the steps from `budget`; a run out of steps
    /// counts as no match and marks the budget ``PatternBudget/isSpent``.
    public func occurs(in text: String, within budget: inout PatternBudget) -> Bool {
        run(Substring(text), whole: false, within: &budget)
    }

    private func run(_ text: Substring, whole: Bool, within budget: inout PatternBudget) -> Bool {
        guard budget.remainingSteps > 0 else {
            budget.spend(0, cut: true)
            return false
        }
        let outcome = run(text, whole: whole, limit: budget.remainingSteps)
        budget.spend(outcome.steps, cut: outcome.cut)
        return outcome.matched
    }

    /// A run with its count of steps, for tests that hold the matcher to its linear bound.
    func run(_ text: Substring, whole: Bool, limit: Int = .max) -> PatternMachine.Outcome {
        PatternMachine(program: program.instructions).run(text.unicodeScalars, whole: whole, limit: limit)
    }

    /// Two patterns are equal when they are written the same.
    public static func == (lhs: Pattern, rhs: Pattern) -> Bool { lhs.source == rhs.source }

    public var description: String { source }
}
