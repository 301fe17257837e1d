import MockStackCore
import Synchronization

/// A stub's hits and the generator of its random delays, behind a lock of their own and shared
/// by every copy of the stub: counting a hit changes neither the stub store's array (which a
/// request's snapshot may share, so a change would copy every stub) nor its lock.
final class StubUsage: Sendable {
    private let state: Mutex<(hits: Int, generator: SeededRandom)>

    init(seed: UInt64) {
        state = Mutex((0, SeededRandom(seed: seed)))
    }

    var hits: Int { state.withLock { $0.hits } }

    /// Counts one more hit unless `times` hits were counted already, and draws its delivery;
    /// nil when the stub is exhausted (another loop may have taken its last hit meanwhile).
    func take(times: Int?, _ delivery: (inout SeededRandom) -> Delivery) -> Delivery? {
        state.withLock { state in
            if let times, state.hits >= times { return nil }
            state.hits += 1
            return delivery(&state.generator)
        }
    }
}
