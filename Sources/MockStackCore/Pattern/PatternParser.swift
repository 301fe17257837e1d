/// Reads a pattern's source into a ``PatternNode`` tree: RE2's and ECMAScript's common syntax
/// (see ``Pattern``), refusing by name what the matcher does not support. Recursive descent,
/// with the group depth bounded so that a hostile pattern cannot exhaust the stack.
struct PatternParser {
    /// How deeply groups may nest.
    static let maximumDepth = 100
    /// The largest count a `{n,m}` may give.
    static let maximumCount = 1_000

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    mutating func parse() throws(PatternError) -> PatternNode {
        let node = try alternation(depth: 0)
        if position < scalars.count {
            // Only an unopened `)` stops a top-level alternation early.
            throw invalid("')' without a matching '('", at: position, length: 1)
        }
        return node
    }

    // MARK: Structure

    private mutating func alternation(depth: Int) throws(PatternError) -> PatternNode {
        var branches = [try concatenation(depth: depth)]
        while peek == "|" {
            position += 1
            branches.append(try concatenation(depth: depth))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation(depth: Int) throws(PatternError) -> PatternNode {
        var items: [PatternNode] = []
        while let next = peek, next != "|", next != ")" {
            let start = position
            let atom = try atom(depth: depth)
            items.append(try quantified(atom, atomStart: start))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concatenation(items)
        }
    }

    private mutating func atom(depth: Int) throws(PatternError) -> PatternNode {
        let start = position
        let scalar = scalars[position]
        switch scalar {
        case "(": return try group(depth: depth)
        case "[": return try characterClass()
        case ".":
            position += 1
            return .set(.anyButLineBreak)
        case "^":
            position += 1
            return .start
        case "$":
            position += 1
            return .end
        case "\\":
            switch try escape(inClass: false) {
            case .scalar(let value): return .scalar(value)
            case .set(let set): return .set(set)
            }
        case "*", "+", "?":
            throw invalid("nothing to repeat before '\(scalar)'", at: start, length: 1)
        case "{" where counts(at: position) != nil:
            throw invalid("nothing to repeat before '{'", at: start, length: 1)
        default:
            position += 1
            return .scalar(scalar.value)
        }
    }

    private mutating func group(depth: Int) throws(PatternError) -> PatternNode {
        let start = position
        position += 1
        if peek == "?" {
            position += 1
            try groupKind(start: start)
        }
        guard depth + 1 <= Self.maximumDepth else {
            throw PatternError(
                .tooLarge("groups nest deeper than \(Self.maximumDepth) at offset \(start)"), at: start, excerpt: "(")
        }
        let body = try alternation(depth: depth + 1)
        guard peek == ")" else { throw invalid("missing ) for '('", at: start, length: 1) }
        position += 1
        return body
    }

    /// After `(?`: a non-capturing or named group goes on (nothing is captured, so a name is
    /// only read past); anything else is refused by name.
    private mutating func groupKind(start: Int) throws(PatternError) {
        func refuse(_ construct: String, length: Int) -> PatternError {
            unsupported(construct, at: start, length: length)
        }
        guard let kind = peek else { throw invalid("incomplete group '(?'", at: start, length: 2) }
        switch kind {
        case ":":
            position += 1
        case "<" where peek(1) == "=" || peek(1) == "!":
            throw refuse("lookaround", length: 4)
        case "<":
            position += 1
            try groupName(closedBy: ">", start: start)
        case "P" where peek(1) == "<":
            position += 2
            try groupName(closedBy: ">", start: start)
        case "'":
            position += 1
            try groupName(closedBy: "'", start: start)
        case "P" where peek(1) == "=": throw refuse("backreferences", length: 4)
        case "P" where peek(1) == ">": throw refuse("subroutine calls", length: 4)
        case "=", "!": throw refuse("lookaround", length: 3)
        case ">": throw refuse("atomic groups", length: 3)
        case "#": throw refuse("comments", length: 3)
        case "|": throw refuse("branch reset groups", length: 3)
        case "(": throw refuse("conditionals", length: 3)
        case "R", "&", "+", "0"..."9": throw refuse("subroutine calls", length: 3)
        case "a"..."z", "A"..."Z", "-", "^": throw refuse("inline options", length: 3)
        default: throw invalid("unknown group syntax '(?\(kind)'", at: start, length: 3)
        }
    }

    private mutating func groupName(closedBy close: Unicode.Scalar, start: Int) throws(PatternError) {
        let nameStart = position
        while let next = peek, next != close {
            let digitAllowed = position > nameStart
            guard next.properties.isAlphabetic || next == "_" || (digitAllowed && ("0"..."9").contains(next)) else {
                throw invalid(
                    "a group name is a letter or _ followed by letters, digits and _", at: position, length: 1)
            }
            position += 1
        }
        guard peek == close, position > nameStart else {
            throw invalid("unfinished group name", at: start, length: position - start)
        }
        position += 1
    }

    // MARK: Quantifiers

    private mutating func quantified(_ atom: PatternNode, atomStart: Int) throws(PatternError) -> PatternNode {
        guard let next = peek else { return atom }
        let start = position
        let bounds: (min: Int, max: Int?)
        switch next {
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "?": bounds = (0, 1)
        case "{":
            guard let counts = counts(at: position) else { return atom }
            bounds = (counts.min, counts.max)
            position = counts.end - 1
        default: return atom
        }
        position += 1
        if let max = bounds.max, max < bounds.min {
            throw invalid(
                "{\(bounds.min),\(max)} repeats at most fewer times than at least", at: start, length: position - start)
        }
        if bounds.min > Self.maximumCount || (bounds.max ?? 0) > Self.maximumCount {
            throw PatternError(
                .tooLarge("a repetition count above \(Self.maximumCount) at offset \(start)"), at: start,
                excerpt: excerpt(start, position - start))
        }
        // A lazy quantifier finds the same matches; only which one is first differs, and no
        // captures are reported.
        if peek == "?" {
            position += 1
        } else if peek == "+" {
            throw unsupported("possessive quantifiers", at: start, length: position - start + 1)
        }
        if let following = peek,
            following == "*" || following == "+" || following == "?"
                || (following == "{" && counts(at: position) != nil)
        {
            throw invalid("nothing to repeat before '\(following)'", at: position, length: 1)
        }
        return .repetition(atom, min: bounds.min, max: bounds.max)
    }

    /// `{n}`, `{n,}` or `{n,m}` at `index`, and where it ends; nil when the brace is
    /// a literal one (as both RE2 and ECMAScript read a brace that starts no count).
    private func counts(at index: Int) -> (min: Int, max: Int?, end: Int)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                value = min((value ?? 0) * 10 + Int(scalars[cursor].value - 48), 1_000_000)
                cursor += 1
            }
            return value
        }
        let low = number()
        guard cursor < scalars.count else { return nil }
        if scalars[cursor] == "}" {
            guard let low else { return nil }
            return (low, low, cursor + 1)
        }
        guard scalars[cursor] == "," else { return nil }
        cursor += 1
        let high = number()
        // `{,m}` has no lower bound, and RE2, JavaScript and .NET read it as the text itself.
        guard cursor < scalars.count, scalars[cursor] == "}", let low else { return nil }
        return (low, high, cursor + 1)
    }

    // MARK: Classes and escapes

    private enum Escaped {
        case scalar(UInt32)
        case set(ScalarSet)
    }

    private mutating func characterClass() throws(PatternError) -> PatternNode {
        let start = position
        position += 1
        let negated = peek == "^"
        if negated { position += 1 }
        if peek == "]" {
            throw invalid(
                "']' first in a class is read differently by different dialects (write \\])", at: position, length: 1)
        }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let next = peek else { throw invalid("missing ] for '['", at: start, length: 1) }
            if next == "]" {
                position += 1
                break
            }
            if next == "[" { throw unsupported("nested classes and POSIX classes", at: position, length: 2) }
            if let second = peek(1), second == next, next == "&" || next == "-" || next == "~" {
                throw unsupported("class set operations", at: position, length: 2)
            }
            let itemStart = position
            let low = try classItem()
            if peek == "-", let after = peek(1), after != "]" {
                position += 1
                let high = try classItem()
                guard case .scalar(let lower) = low, case .scalar(let upper) = high else {
                    throw invalid(
                        "a range's ends must be single characters", at: itemStart, length: position - itemStart)
                }
                guard lower <= upper else {
                    throw invalid("range out of order", at: itemStart, length: position - itemStart)
                }
                ranges.append(lower...upper)
                continue
            }
            switch low {
            case .scalar(let value): ranges.append(value...value)
            case .set(let set): ranges += set.ranges
            }
        }
        let set = ScalarSet(ranges)
        return .set(negated ? set.inverted : set)
    }

    private mutating func classItem() throws(PatternError) -> Escaped {
        if peek == "\\" { return try escape(inClass: true) }
        defer { position += 1 }
        return .scalar(scalars[position].value)
    }

    /// A backslash and what follows it.
    private mutating func escape(inClass: Bool) throws(PatternError) -> Escaped {
        let start = position
        position += 1
        guard let letter = peek else { throw invalid("a trailing backslash", at: start, length: 1) }
        position += 1
        func refuse(_ construct: String) -> PatternError { unsupported(construct, at: start, length: 2) }
        switch letter {
        case "d": return .set(.digits)
        case "D": return .set(ScalarSet.digits.inverted)
        case "w": return .set(.word)
        case "W": return .set(ScalarSet.word.inverted)
        case "s": return .set(.space)
        case "S": return .set(ScalarSet.space.inverted)
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "v": return .scalar(0x0B)
        case "f": return .scalar(0x0C)
        case "r": return .scalar(0x0D)
        case "0" where !(peek.map { ("0"..."9").contains($0) } ?? false): return .scalar(0)
        case "0": throw refuse("octal escapes")
        case "1"..."9": throw inClass ? refuse("octal escapes") : refuse("backreferences")
        case "k", "g": throw refuse("backreferences")
        case "x": return .scalar(try hexadecimal(digits: 2, start: start))
        case "u": return .scalar(try hexadecimal(digits: 4, start: start))
        case "b", "B": throw inClass ? refuse("\\b in a class") : refuse("word boundaries")
        case "A", "z", "Z", "G": throw refuse("anchors other than ^ and $")
        case "p", "P": throw refuse("Unicode properties")
        case "Q", "E": throw refuse("quoting with \\Q…\\E")
        case "c": throw refuse("control escapes")
        case "K": throw refuse("match reset")
        default:
            if letter.isASCII, letter.properties.isAlphabetic || ("0"..."9").contains(letter) {
                throw refuse("the escape \\\(letter)")
            }
            // Any other character stands for itself: `\.`, `\/`, `\-`, `\\`, `\é`.
            return .scalar(letter.value)
        }
    }

    /// `\xHH`, `\uHHHH`, or either with `{H…}` (up to 6 digits).
    private mutating func hexadecimal(digits: Int, start: Int) throws(PatternError) -> UInt32 {
        let braced = peek == "{"
        if braced { position += 1 }
        var value: UInt32 = 0
        var count = 0
        while let next = peek, let digit = next.hexadecimalDigit, braced ? count < 6 : count < digits {
            value = value * 16 + digit
            count += 1
            position += 1
        }
        if braced {
            guard peek == "}", count > 0 else {
                throw invalid("a malformed hexadecimal escape", at: start, length: position - start)
            }
            position += 1
        } else {
            guard count == digits else {
                throw invalid("a malformed hexadecimal escape", at: start, length: position - start)
            }
        }
        guard Unicode.Scalar(value) != nil else {
            throw invalid(
                "U+\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar", at: start,
                length: position - start)
        }
        return value
    }

    // MARK: Reading

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ ahead: Int) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private func excerpt(_ start: Int, _ length: Int) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<min(scalars.count, start + max(1, length))])
        return String(text)
    }

    private func invalid(_ message: String, at start: Int, length: Int) -> PatternError {
        PatternError(.invalid(message), at: start, excerpt: excerpt(start, length))
    }

    private func unsupported(_ construct: String, at start: Int, length: Int) -> PatternError {
        PatternError(.unsupported(construct: construct), at: start, excerpt: excerpt(start, length))
    }
}

extension Unicode.Scalar {
    fileprivate var hexadecimalDigit: UInt32? {
        switch self {
        case "0"..."9": value - 48
        case "a"..."f": value - 87
        case "A"..."F": value - 55
        default: nil
        }
    }
}
