/// How many journaled requests a verification expects: `.exactly(2)`, `.atLeast(1)`, `.atMost(3)`.
public enum RequestCount: Sendable, Equatable, CustomStringConvertible {
    case exactly(Int)
    case atLeast(Int)
    case atMost(Int)

    /// None at all.
    public static let never = RequestCount.exactly(0)

    /// Whether `count` requests satisfy it.
    public func admits(_ count: Int) -> Bool {
        switch self {
        case .exactly(let wanted): count == wanted
        case .atLeast(let least): count >= least
        case .atMost(let most): count <= most
        }
    }

    /// `exactly 2`, `at least 1`, `at most 3`: for test failures.
    public var description: String {
        switch self {
        case .exactly(let wanted): "exactly \(wanted)"
        case .atLeast(let least): "at least \(least)"
        case .atMost(let most): "at most \(most)"
        }
    }
}
