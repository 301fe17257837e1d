/// The room for upstream answers the upstream thread holds while they arrive, across every
/// transfer at once: each answer has its own bound (``UpstreamRequest/maximumBodyBytes``), but
/// many slow or endless ones together would still grow the process without end. Past the
/// bound, the answer whose bytes would cross it is given up (a 502 for the proxy's client),
/// and the others go on.
///
/// Used on the upstream thread alone (``LibcurlClient``, its transfers' callbacks), so it needs
/// no lock; a class, so that every transfer counts against the one total.
final class AnswerBudget {
    /// The most bytes held at once.
    let limit: Int
    /// The bytes held now.
    private(set) var held = 0

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Takes `count` more bytes; false, taking none, when they would cross ``limit``.
    func take(_ count: Int) -> Bool {
        guard count <= limit - held else { return false }
        held += count
        return true
    }

    /// Gives back `count` bytes taken before (an answer handed over or given up).
    func give(_ count: Int) {
        held = max(0, held - count)
    }
}
