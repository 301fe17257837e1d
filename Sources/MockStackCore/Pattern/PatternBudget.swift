/// How many steps of ``PatternMachine`` work regular-expression matches may still take, shared
/// by every match made for one request (the stubs tried on it, one verification over a journal,
/// the waits offered one new entry).
///
/// Matching is linear, but a large program over a long text is still a great many steps: a
/// counted repetition of a class over a 30 KB path, tried by a few stubs or over a full
/// journal, would hold the loop for seconds. A match that runs out of budget stops at once
/// and counts as no match; ``isSpent`` tells the caller, which reports it.
public struct PatternBudget: Sendable, Equatable {
    /// What one request's matches may take in all: far beyond what ordinary patterns need over
    /// ordinary requests, and a small fraction of the loop's stall bound.
    public static let perRequest = 4_000_000

    /// The steps left.
    public private(set) var remainingSteps: Int
    /// Whether a match ran out of steps (and so was counted as no match).
    public private(set) var isSpent = false

    /// A budget of `steps` (0 or more).
    public init(steps: Int = PatternBudget.perRequest) {
        remainingSteps = max(0, steps)
    }

    /// Takes `steps` for other bounded work matching does (comparing JSON leniently); false,
    /// with the budget spent, when fewer are left.
    public mutating func take(_ steps: Int) -> Bool {
        guard remainingSteps >= steps else {
            remainingSteps = 0
            isSpent = true
            return false
        }
        remainingSteps -= steps
        return true
    }

    /// Takes what a run used; `cut` says it was stopped for want of steps.
    mutating func spend(_ steps: Int, cut: Bool) {
        remainingSteps = max(0, remainingSteps - steps)
        if cut { isSpent = true }
    }
}
