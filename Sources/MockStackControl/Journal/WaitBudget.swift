import Synchronization

/// How many requests may wait for journal entries at once, across the server and its
/// sessions: each holds a connection open for up to ``ControlPlane/maxWaitMilliseconds``.
package final class WaitBudget: Sendable {
    /// The default ``limit``.
    package static let defaultLimit = 256

    let limit: Int
    private let taken = Atomic(0)
    private let lastId = Atomic(0)

    package init(limit: Int = WaitBudget.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Takes a place for one waiter; false when all ``limit`` are taken.
    func take() -> Bool {
        var current = taken.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = taken.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a place back (once for each ``take()`` that succeeded).
    func release() { taken.subtract(1, ordering: .acquiringAndReleasing) }

    /// Waiters now.
    var count: Int { taken.load(ordering: .acquiring) }

    /// An id no other waiter of this server has.
    func nextId() -> Int { lastId.add(1, ordering: .relaxed).newValue }
}
