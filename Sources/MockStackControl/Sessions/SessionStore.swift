import MockStackCore
import Synchronization

/// The sessions in use, created on first use and bounded: past ``limit`` the least recently
/// used one is dropped (a server left running in CI meets many test runs that never reset).
/// A session's stubs go with it.
package final class SessionStore: Sendable {
    static let prefix = "/__session"
    static let prefixBytes = Array(prefix.utf8)

    let limit: Int
    private let journalCapacity: Int
    private let journalBodyLimit: Int
    private let seed: UInt64
    private let stubs: StubStore
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: (session: Session, lastUse: UInt64)] = [:]
        var uses: UInt64 = 0
        /// Counts ``removeAll(because:)`` calls: a session made from apps read before one is stale.
        var generation = 0
    }

    /// The server's real-time journal, which hears every session's sockets too.
    let realtime: RealtimeJournal?

    package init(
        limit: Int, journalCapacity: Int, journalBodyLimit: Int, seed: UInt64, stubs: StubStore,
        realtime: RealtimeJournal? = nil
    ) {
        self.realtime = realtime
        self.limit = max(1, limit)
        self.journalCapacity = journalCapacity
        self.journalBodyLimit = journalBodyLimit
        self.seed = seed
        self.stubs = stubs
    }

    /// The session named `id`, made from `apps` if it does not exist yet.
    func session(_ id: String, apps: () -> [any MockApp]) -> Session {
        while true {
            let (found, generation) = touch(id)
            if let found { return found }
            // Copies are made outside the lock; if two requests race, the first one stored wins,
            // and a copy of apps that a reload replaced meanwhile is made again.
            let made = Session(
                id: id, apps: apps(), journalCapacity: journalCapacity, journalBodyLimit: journalBodyLimit, seed: seed,
                serverRealtime: realtime)
            let (stored, evicted): (Session?, Session?) = state.withLock { state in
                guard state.generation == generation else { return (nil, nil) }
                state.uses += 1
                if let existing = state.sessions[id] {
                    state.sessions[id]?.lastUse = state.uses
                    return (existing.session, nil)
                }
                var evicted: Session?
                if state.sessions.count >= limit,
                    let oldest = state.sessions.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
                {
                    evicted = state.sessions.removeValue(forKey: oldest)?.session
                }
                state.sessions[id] = (made, state.uses)
                return (made, evicted)
            }
            if let evicted {
                evicted.end(because: "evicted as the least recently used, past --max-sessions \(limit)")
                stubs.removeAll(session: evicted.id)
            }
            if let stored { return stored }
        }
    }

    private func touch(_ id: String) -> (Session?, generation: Int) {
        state.withLock { state in
            guard let found = state.sessions[id]?.session else { return (nil, state.generation) }
            state.uses += 1
            state.sessions[id]?.lastUse = state.uses
            return (found, state.generation)
        }
    }

    /// The session named `id` if it is live, without making it.
    func existing(_ id: String) -> Session? {
        state.withLock { $0.sessions[id]?.session }
    }

    /// The sessions, oldest first.
    var all: [Session] {
        state.withLock { $0.sessions.values.map(\.session) }.sorted { $0.created < $1.created }
    }

    /// Drops one session and its stubs; false when there is none by that id.
    func remove(_ id: String) -> Bool {
        let removed = state.withLock { $0.sessions.removeValue(forKey: id)?.session }
        removed?.end(because: "deleted")
        stubs.removeAll(session: id)
        return removed != nil
    }

    /// Drops every session and their stubs (a reset, or apps reloaded from changed fixtures).
    /// - Parameter reason: why, for the answer of the requests waiting for their journals.
    package func removeAll(because reason: String) {
        let dropped = state.withLock { state in
            defer {
                state.sessions.removeAll()
                state.generation += 1
            }
            return state.sessions.values.map(\.session)
        }
        for session in dropped { session.end(because: reason) }
        stubs.removeAllInSessions()
    }
}
