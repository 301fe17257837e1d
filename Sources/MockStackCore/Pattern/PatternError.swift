/// Why a pattern was refused: a construct the linear-time matcher does not support (named, so
/// that the message says what to write instead), a syntax error, or a pattern that would
/// compile too large.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A construct of other regex dialects that ``Pattern`` refuses, by name
        /// (`backreferences`, `lookaround`, …).
        case unsupported(construct: String)
        /// The pattern is not well formed (`missing )`, `nothing to repeat`, …).
        case invalid(String)
        /// The pattern is well formed but would compile to more than ``Pattern/maximumInstructions``.
        case tooLarge(String)
    }

    public let kind: Kind
    /// Where the problem starts, counted in Unicode scalars from the pattern's start.
    public let offset: Int
    /// The offending text (`\1`, `(?=`, `*+`).
    public let excerpt: String

    public init(_ kind: Kind, at offset: Int, excerpt: String) {
        self.kind = kind
        self.offset = offset
        self.excerpt = excerpt
    }

    /// `'\1' at offset 7 is not supported (backreferences)`, `missing ) for '(' at offset 0`.
    public var description: String {
        switch kind {
        case .unsupported(let construct): "'\(excerpt)' at offset \(offset) is not supported (\(construct))"
        case .invalid(let message): "\(message) at offset \(offset)"
        case .tooLarge(let message): message
        }
    }
}
