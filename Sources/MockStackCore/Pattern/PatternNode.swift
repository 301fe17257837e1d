/// A parsed pattern, before it is compiled to a ``PatternProgram``. Groups leave no node of
/// their own: nothing is captured, so `(ab)` and `ab` are the same tree.
indirect enum PatternNode: Sendable, Equatable {
    /// Matches the empty string (`()`, an empty branch).
    case empty
    case scalar(UInt32)
    case set(ScalarSet)
    /// `^`: the start of the text.
    case start
    /// `$`: the end of the text.
    case end
    case concatenation([PatternNode])
    case alternation([PatternNode])
    /// `min` to `max` times; `max` nil is unbounded.
    case repetition(PatternNode, min: Int, max: Int?)
}
