import Synchronization

/// How many Engine.IO sessions an app has open, its copies in every mockstack session together,
/// against ``MockStackSocketIO/EngineIOSettings/maxSessions``. Shared by an endpoint and its
/// ``EngineIOEndpoint/fresh()`` copies: mockstack sessions are made by any client, so a budget of
/// their own would let each of them open as many again. docs/feathers-realtime.md#errors.
final class EngineIOSessionBudget: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether a handshake may open one more session now. Asked before the answer that opens it,
    /// and counted when it opens: handshakes racing on other loops may pass it by a few.
    var hasRoom: Bool { open.load(ordering: .relaxed) < limit }

    /// A session opened.
    func opened() { open.add(1, ordering: .relaxed) }

    /// A session ended. Every session ends, also on an endpoint no longer served (its mockstack
    /// session dropped, its app reloaded): a connection holds its app, so the endpoint stays
    /// until its last session's timers end it.
    func ended() { open.subtract(1, ordering: .relaxed) }
}
