import MockStackCore
import Synchronization

/// The sessions in use, created on first use and bounded: past ``limit`` the least recently
/// used one is dropped (a server left running in CI meets many test runs that never reset).
final class SessionStore: Sendable {
    static let prefix = "/__session"

    let limit: Int
    private let journalCapacity: Int
    private let journalBodyLimit: Int
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: (session: Session, lastUse: UInt64)] = [:]
        var uses: UInt64 = 0
    }

    init(limit: Int, journalCapacity: Int, journalBodyLimit: Int) {
        self.limit = max(1, limit)
        self.journalCapacity = journalCapacity
        self.journalBodyLimit = journalBodyLimit
    }

    /// The session named `id`, made from `apps` if it does not exist yet.
    func session(_ id: String, apps: () -> [any MockApp]) -> Session {
        if let found = touch(id) { return found }
        // Copies are made outside the lock; if two requests race, the first one stored wins.
        let made = Session(id: id, apps: apps(), journalCapacity: journalCapacity, journalBodyLimit: journalBodyLimit)
        return state.withLock { state in
            state.uses += 1
            if let existing = state.sessions[id] {
                state.sessions[id]?.lastUse = state.uses
                return existing.session
            }
            if state.sessions.count >= limit, let oldest = state.sessions.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.sessions[oldest] = nil
            }
            state.sessions[id] = (made, state.uses)
            return made
        }
    }

    private func touch(_ id: String) -> Session? {
        state.withLock { state in
            guard let found = state.sessions[id]?.session else { return nil }
            state.uses += 1
            state.sessions[id]?.lastUse = state.uses
            return found
        }
    }

    /// The sessions, oldest first.
    var all: [Session] {
        state.withLock { $0.sessions.values.map(\.session) }.sorted { $0.created < $1.created }
    }

    /// Drops one session; false when there is none by that id.
    func remove(_ id: String) -> Bool {
        state.withLock { $0.sessions.removeValue(forKey: id) != nil }
    }

    /// Drops every session (a reset, or apps reloaded from changed fixtures).
    func removeAll() {
        state.withLock { $0.sessions.removeAll() }
    }
}
