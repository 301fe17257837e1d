import Synchronization

/// What all the records of one Feathers app may weigh, written as JSON: its services' stores and
/// every session's copies of them together. Each store has its own limit too
/// (``ServiceOptions/storeLimitBytes``); this one keeps 256 sessions from multiplying it.
public final class StoreBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// 32 MiB of records for an app and all its sessions: a test's are kilobytes.
    public static let defaultLimit = 32 * 1024 * 1024

    public init(limit: Int = StoreBudget.defaultLimit) {
        self.limit = limit
    }

    public var bytes: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` more if they fit under the limit; false, taking nothing, when they do not.
    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Records what a store holds or gave back, whatever the limit (a fixture's seed, a removal).
    func adjust(by bytes: Int) {
        used.add(bytes, ordering: .relaxed)
    }
}
