@testable import MockStackCore
import Testing

/// ``Pattern`` against Swift's own `Regex` on seeded random patterns and texts in the syntax
/// both read the same way (ASCII texts without line breaks, where `\d \w \s`, `.` and `$`
/// agree): they must find the same whole matches and the same partial ones.
struct PatternDifferentialTests {
    private struct Generator {
        var random: SeededRandom

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

        mutating func alternation(depth: Int) -> String {
            let count = depth < 2 ? pick([1, 1, 2, 3]) : 1
            return (0..<count).map { _ in concatenation(depth: depth) }.joined(separator: "|")
        }

        mutating func concatenation(depth: Int) -> String {
            (0..<pick([1, 2, 3])).map { _ in
                if depth < 2, random.next() % 4 == 0 {
                    // Bounded: an unbounded quantifier over one inside sends Swift's
                    // backtracking exponential even on these short texts (the point of ``Pattern``).
                    return pick(["(", "(?:"]) + alternation(depth: depth + 1) + ")" + pick(["", "", "?", "??", "{2}", "{1,2}", "{0,2}?"])
                }
                return pick(Self.atoms) + pick(["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "??", "{1,3}?"])
            }.joined()
        }

        static let atoms = ["a", "b", "1", "-", ".", "[ab]", "[^a]", "[a-c]", "[\\d_]", "\\d", "\\w", "\\W", "\\D", "\\s", "\\-", "\\."]

        mutating func pattern() -> String {
            pick(["", "", "^"]) + alternation(depth: 0) + pick(["", "", "$"])
        }

        mutating func text() -> String {
            String((0..<pick([0, 1, 2, 3, 4, 5, 6, 8])).map { _ in pick(Array("ab1-c_. ")) })
        }
    }

    @Test func agreesWithSwiftRegex() throws {
        var generator = Generator(random: SeededRandom(seed: 22))
        var compared = 0
        for _ in 0..<400 {
            let source = generator.pattern()
            let pattern = try Pattern(source)
            let regex = try Regex(source)
            for _ in 0..<20 {
                let text = generator.text()
                let whole = (try regex.wholeMatch(in: text)) != nil
                #expect(pattern.wholeMatch(text) == whole, "/\(source)/ whole on '\(text)'")
                let part = (try regex.firstMatch(in: text)) != nil
                #expect(pattern.occurs(in: text) == part, "/\(source)/ search on '\(text)'")
                compared += 1
            }
        }
        #expect(compared == 8_000)
    }
}
