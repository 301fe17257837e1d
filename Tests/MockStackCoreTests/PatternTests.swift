@testable import MockStackCore
import Testing

/// The linear-time matcher behind stubs' `pathRegex` and fixtures' `Matches` rules: what it
/// matches, what it refuses and why, and that no pattern makes it backtrack.
struct PatternTests {
    @Test(arguments: [
        // Literals and escapes
        ("/example/hello", "/example/hello", true),
        ("/example/hello", "/example/hello/", false),
        ("/example/hello", "/example/hell", false),
        ("", "", true),
        ("", "a", false),
        (#"a\.b"#, "a.b", true),
        (#"a\.b"#, "axb", false),
        (#"\/x\/"#, "/x/", true),
        (#"\\"#, "\\", true),
        (#"\x41\u00e9"#, "Aé", true),
        (#"\u{1F600}"#, "😀", true),
        (#"a\tb"#, "a\tb", true),
        ("é+", "ééé", true),
        // Dot and classes
        ("a.c", "abc", true),
        ("a.c", "a\nc", false),
        ("a.c", "ac", false),
        ("[a-z0-9_-]+", "ab_9-z", true),
        ("[a-z0-9_-]+", "ab/9", false),
        ("[^/]+", "abc", true),
        ("[^/]+", "a/c", false),
        ("[-a]", "-", true),
        ("[a-]", "-", true),
        (#"[\]]"#, "]", true),
        (#"[\d.]+"#, "1.25", true),
        (#"[^\d]"#, "5", false),
        (#"[^\d]"#, "x", true),
        (#"[\D]"#, "x", true),
        (#"[\W]"#, "_", false),
        ("[.]", "x", false),
        // Class escapes
        (#"\d+"#, "2024", true),
        (#"\d"#, "x", false),
        (#"\D\W\S"#, "x- ", false),
        (#"\D\W\S"#, "x-y", true),
        (#"\w+"#, "ab_C9", true),
        (#"\s"#, " ", true),
        (#"\s"#, "\t", true),
        // Anchors
        ("^/a$", "/a", true),
        ("^/a", "/a", true),
        ("a^b", "ab", false),
        ("a$b", "ab", false),
        ("(^a|b)+", "ab", true),
        ("(^a|b)+", "ba", false),
        // Groups and alternation
        ("/users/(\\d+|me)", "/users/42", true),
        ("/users/(\\d+|me)", "/users/me", true),
        ("/users/(\\d+|me)", "/users/you", false),
        ("/(?:a|b)c", "/bc", true),
        ("/(?<id>\\d+)", "/7", true),
        ("/(?P<id>\\d+)", "/7", true),
        ("a|", "", true),
        ("(|a)b", "b", true),
        ("()", "", true),
        ("(a|ab)(c|bcd)", "abcd", true),
        // Quantifiers
        ("a*", "", true),
        ("a*", "aaa", true),
        ("a+", "", false),
        ("ab?c", "ac", true),
        ("ab?c", "abbc", false),
        ("a{3}", "aaa", true),
        ("a{3}", "aa", false),
        ("a{3}", "aaaa", false),
        ("a{2,}", "aaaaa", true),
        ("a{2,}", "a", false),
        ("a{2,3}", "aaa", true),
        ("a{2,3}", "aaaa", false),
        // No lower bound: the text itself, as RE2, JavaScript and .NET read it.
        ("a{,2}", "a{,2}", true),
        ("a{,2}", "aa", false),
        ("a{0}", "", true),
        ("(ab){2}", "abab", true),
        ("a*?b+?c??", "aabb", true),
        ("a{1,2}?", "aa", true),
        ("(a*)*b", "aaab", true),
        ("(a?)*", "aa", true),
        ("(a|b)*c", "ababc", true),
        // Braces that start no count are literal.
        ("a{", "a{", true),
        ("a{x}", "a{x}", true),
        ("a{1,x}", "a{1,x}", true),
        ("}", "}", true),
        ("]", "]", true),
    ] as [(String, String, Bool)])
    func wholeMatch(_ source: String, _ text: String, _ expected: Bool) throws {
        #expect(try Pattern(source).wholeMatch(text) == expected)
    }

    @Test(arguments: [
        ("b", "abc", true),
        ("^b", "abc", false),
        ("c$", "abc", true),
        ("$", "abc", true),
        ("^$", "", true),
        ("^$", "a", false),
        ("b$", "abc", false),
        (#"\d{3}"#, "ab1234", true),
        (#"\d{5}"#, "ab1234", false),
        ("", "anything", true),
        ("x|yz", "ayz", true),
        ("^[^@]+@[^@]+$", "me@example.com", true),
        ("^[^@]+@[^@]+$", "me@@example.com", false),
    ] as [(String, String, Bool)])
    func occurs(_ source: String, _ text: String, _ expected: Bool) throws {
        #expect(try Pattern(source).occurs(in: text) == expected)
    }

    @Test(arguments: [
        (#"(a)\1"#, #"\1"#, 3, "backreferences"),
        (#"(?<n>a)\k<n>"#, #"\k"#, 7, "backreferences"),
        ("(?P=n)", "(?P=", 0, "backreferences"),
        ("a(?=b)", "(?=", 1, "lookaround"),
        ("a(?!b)", "(?!", 1, "lookaround"),
        ("(?<=a)b", "(?<=", 0, "lookaround"),
        ("(?<!a)b", "(?<!", 0, "lookaround"),
        ("a*+", "*+", 1, "possessive quantifiers"),
        ("a{2}+", "{2}+", 1, "possessive quantifiers"),
        ("(?>a)", "(?>", 0, "atomic groups"),
        ("(?i)a", "(?i", 0, "inline options"),
        ("(?i:a)", "(?i", 0, "inline options"),
        (#"\bword"#, #"\b"#, 0, "word boundaries"),
        (#"\Aa"#, #"\A"#, 0, "anchors other than ^ and $"),
        (#"\p{L}"#, #"\p"#, 0, "Unicode properties"),
        ("[[:alpha:]]", "[:", 1, "nested classes and POSIX classes"),
        ("[a-z&&[^q]]", "&&", 4, "class set operations"),
        ("(?R)", "(?R", 0, "subroutine calls"),
        ("(?(1)a|b)", "(?(", 0, "conditionals"),
        ("(?#note)", "(?#", 0, "comments"),
        (#"\Qa.b\E"#, #"\Q"#, 0, #"quoting with \Q…\E"#),
        (#"\R"#, #"\R"#, 0, #"the escape \R"#),
    ] as [(String, String, Int, String)])
    func refusesByName(_ source: String, _ excerpt: String, _ offset: Int, _ construct: String) {
        #expect(throws: PatternError(.unsupported(construct: construct), at: offset, excerpt: excerpt)) { try Pattern(source) }
    }

    @Test func theMessageNamesTheConstruct() {
        #expect(throws: PatternError.self) { try Pattern(#"/a/(\d+)/\1"#) }
        do {
            _ = try Pattern(#"/a/(\d+)/\1"#)
        } catch {
            #expect(error.description == #"'\1' at offset 9 is not supported (backreferences)"#)
        }
    }

    @Test(arguments: [
        ("(", "missing ) for '(' at offset 0"),
        ("a)", "')' without a matching '(' at offset 1"),
        ("*a", "nothing to repeat before '*' at offset 0"),
        ("a**", "nothing to repeat before '*' at offset 2"),
        ("a{2}{3}", "nothing to repeat before '{' at offset 4"),
        ("{2}", "nothing to repeat before '{' at offset 0"),
        ("[a", "missing ] for '[' at offset 0"),
        ("[]a]", "']' first in a class is read differently by different dialects (write \\]) at offset 1"),
        ("[z-a]", "range out of order at offset 1"),
        (#"[\d-z]"#, "a range's ends must be single characters at offset 1"),
        ("a{3,2}", "{3,2} repeats at most fewer times than at least at offset 1"),
        ("\\", "a trailing backslash at offset 0"),
        (#"\x4"#, "a malformed hexadecimal escape at offset 0"),
        (#"\u{D800}"#, "U+D800 is not a Unicode scalar at offset 0"),
        ("(?", "incomplete group '(?' at offset 0"),
        ("(?<1a>x)", "a group name is a letter or _ followed by letters, digits and _ at offset 3"),
    ])
    func refusesMalformedPatterns(_ source: String, _ message: String) {
        do {
            _ = try Pattern(source)
            Issue.record("'\(source)' compiled")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func boundsWhatAPatternMayCompileTo() {
        func kind(_ source: String) -> PatternError.Kind? {
            do {
                _ = try Pattern(source)
                return nil
            } catch {
                return error.kind
            }
        }
        // 999 instructions and the final match.
        #expect(kind("a{999}") == nil)
        #expect(kind("a{1000}") == .tooLarge("the pattern compiles to more than 1000 instructions (repetitions count their body once per repeat)"))
        #expect(kind("a{1001}") == .tooLarge("a repetition count above 1000 at offset 1"))
        #expect(kind("a{2,}") == nil)
        #expect(kind("(a{100}){100}") == .tooLarge("the pattern compiles to more than 1000 instructions (repetitions count their body once per repeat)"))
        #expect(kind("((((a{999}){999}){999}){999}){999}") != nil)
        #expect(kind(String(repeating: "(", count: 100) + String(repeating: ")", count: 100)) == nil)
        #expect(kind(String(repeating: "(", count: 101) + String(repeating: ")", count: 101)) == .tooLarge("groups nest deeper than 100 at offset 100"))
        // A hostile depth is refused before the parser's recursion can exhaust the stack.
        #expect(kind(String(repeating: "(", count: 4_000)) == .tooLarge("groups nest deeper than 100 at offset 100"))
        #expect(kind(String(repeating: "a", count: 4_097)) == .tooLarge("the pattern is 4097 characters long, more than 4096"))
    }

    /// Nested quantifiers that make a backtracking engine take exponential time cost this one
    /// at most one visit per instruction per scalar (plus the start).
    @Test(arguments: ["(a+)+b", "(a*)*b", "(a|a)*b", "(a|aa)+b", "(x+x+)+y", "(.*a){12}b", "^(([a-z])+.)+[A-Z]([a-z])+$"])
    func pathologicalPatternsStayLinear(_ source: String) throws {
        let pattern = try Pattern(source)
        let text = String(repeating: "a", count: 10_000)
        let bound = (text.unicodeScalars.count + 1) * 2 * pattern.program.instructions.count
        for whole in [true, false] {
            let outcome = pattern.run(Substring(text), whole: whole)
            #expect(!outcome.matched)
            #expect(outcome.steps <= bound, "\(source): \(outcome.steps) steps, bound \(bound)")
        }
    }

    @Test func aLongPathCostsLinearly() throws {
        let pattern = try Pattern(#"/example/([a-z]+/)*[a-z]+\.json"#)
        let short = pattern.run(Substring("/example/" + String(repeating: "ab/", count: 1_000) + "x"), whole: true)
        let long = pattern.run(Substring("/example/" + String(repeating: "ab/", count: 10_000) + "x"), whole: true)
        #expect(!short.matched && !long.matched)
        // Ten times the text, about ten times the steps.
        #expect(long.steps <= short.steps * 11)
        #expect(try Pattern(#"/example/([a-z]+/)*[a-z]+\.json"#).wholeMatch("/example/" + String(repeating: "ab/", count: 10_000) + "x.json"))
    }

    /// Linear is not cheap: a counted repetition of a class costs each scalar hundreds of steps.
    /// A run stops at its budget and counts as no match; the budget says it ran out.
    @Test func aRunStopsAtItsBudgetAndCountsAsNoMatch() throws {
        let pattern = try Pattern(".*[ab]{0,450}c")
        let long = String(repeating: "x", count: 30_000) + "c"
        let unbounded = pattern.run(Substring(long), whole: true)
        #expect(unbounded.matched && !unbounded.cut && unbounded.steps > PatternBudget.perRequest)
        let bounded = pattern.run(Substring(long), whole: true, limit: 10_000)
        #expect(!bounded.matched && bounded.cut && bounded.steps <= 10_001)
        var budget = PatternBudget(steps: 10_000)
        #expect(!pattern.wholeMatch(long, within: &budget))
        #expect(budget.isSpent && budget.remainingSteps == 0)
        // A spent budget matches nothing more, however short the text.
        #expect(!pattern.wholeMatch("abc", within: &budget))
        // The same budget is shared: what one match takes, the next has not.
        var shared = PatternBudget(steps: 1_000_000)
        #expect(pattern.wholeMatch("xabc", within: &shared))
        #expect(!shared.isSpent && shared.remainingSteps < 1_000_000)
        // The plain calls each bring a budget of their own.
        #expect(!pattern.wholeMatch(long))
        #expect(pattern.wholeMatch("xabc") && pattern.occurs(in: "xxabcxx"))
    }
}
