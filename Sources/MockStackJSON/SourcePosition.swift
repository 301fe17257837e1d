/// A 1-based line and column in a source text (columns count characters, not bytes).
public struct SourcePosition: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in characters.
    public var column: Int

    /// The position at `line` and `column`, both from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The first character of a text.
    public static let start = SourcePosition(line: 1, column: 1)

    /// `line:column`, as diagnostics write it.
    public var description: String { "\(line):\(column)" }

    /// Earlier in the text.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
