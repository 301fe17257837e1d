import Synchronization

/// The subscriptions open on an app and all its session copies together: a stream request while
/// ``ServerEventsSettings/maxSubscriptions`` are open is refused. Shared, since sessions are made
/// by any client and a budget each would multiply the bound.
final class SubscriptionBudget: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    var count: Int { open.load(ordering: .relaxed) }

    /// Whether a new stream must be refused. Checked when the request arrives and counted when
    /// its stream opens: a stream whose client leaves before then never counts.
    var isFull: Bool { count >= limit }

    func opened() { open.add(1, ordering: .relaxed) }

    func closed() { open.subtract(1, ordering: .relaxed) }
}
