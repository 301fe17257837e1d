import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every request the apps answered, newest last, bounded twice: at most `capacity` entries,
/// and at most `byteLimit` bytes of them in all, the oldest going first. Each entry keeps at
/// most `bodyLimit` bytes of each body and the rest of the request within ``JournalBounds``,
/// so memory stays flat however long the server runs and however many sessions keep journals
/// of their own (`GET` / `DELETE /__mockstack/requests`).
package final class RequestJournal: Sendable {
    let capacity: Int
    let bodyLimit: Int
    let byteLimit: Int
    private let state: Mutex<State>

    /// An entry and what it weighs. A named struct, not a tuple: the entry pushed out is then
    /// destroyed by code made for this type, where a tuple's optional went through the
    /// runtime's generic value witnesses, on every request.
    private struct Kept {
        var entry: JournalEntry
        var bytes: Int
    }

    /// A waiter and the newest entry it has been offered (or looked at when it started).
    private struct Waiting {
        var waiter: JournalWaiter
        var checkedThrough: Int
    }

    /// What offering new entries to one waiter came to.
    private enum Offer {
        case found(JournalEntry)
        case patternBudgetSpent(entry: Int, steps: Int)
        case checked(through: Int)
    }

    private struct State {
        /// Oldest first; a ring, so that pushing out the oldest moves no other entry.
        var entries: RingBuffer<Kept>
        /// What the kept entries weigh (``JournalBounds/weight(path:query:headerCount:body:)``
        /// of the request and the answer, and ``JournalEntry/bytes(of:)``).
        var bytes = 0
        var lastId = 0
        /// Entries pushed out since the last clear.
        var dropped = 0
        /// Requests waiting for an entry that is not there yet (``firstMatch(orWait:)``).
        var waiters: [Waiting] = []
        /// The answer to every wait from now on: the journal's session has ended.
        var closed: HTTPResponse?

        mutating func dropOldest() {
            bytes -= entries.removeFirst().bytes
            dropped += 1
        }
    }

    /// The server's journal weighs at most this much: its 1,000 entries of typical requests
    /// are a few megabytes, and 1,000 of the largest (two 16 KiB bodies, bounded headers) a
    /// few dozen.
    package static let serverByteLimit = 64 * 1024 * 1024

    /// - Parameters:
    ///   - capacity: entries kept (0 records nothing);
    ///   - bodyLimit: bytes of each body kept;
    ///   - byteLimit: what the kept entries may weigh in all; the newest is always kept.
    package init(capacity: Int = 1000, bodyLimit: Int = 16 * 1024, byteLimit: Int = RequestJournal.serverByteLimit) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        self.byteLimit = max(0, byteLimit)
        state = Mutex(State(entries: RingBuffer(capacity: self.capacity)))
    }

    var isEnabled: Bool { capacity > 0 }

    /// The multipart parts of a request, described (names, file names, types and sizes: the
    /// bytes are in the body already), or nil when it has none or they cannot be read. One
    /// linear scan that copies no part; the pipeline makes it once for every journal a request
    /// goes into.
    static func parts(of request: HTTPRequest) -> JournalEntry.PartList? {
        // Most requests have no body, and then no parts: their headers are not searched.
        guard !request.body.isEmpty, let type = request.headers["Content-Type"], type.utf8.count >= 19,
            type.utf8.prefix(19).elementsEqual("multipart/form-data".utf8, by: { ($0 | 0x20) == ($1 | 0x20) }),
            let boundary = MultipartForm.boundary(in: type),
            let summaries = try? MultipartForm.summaries(of: request.body, boundary: boundary, maximumParts: 1000)
        else { return nil }
        let bounded = JournalBounds.boundedParts(summaries)
        return JournalEntry.PartList(parts: bounded.parts, dropped: bounded.dropped)
    }

    /// Records one answered request; `parts` is ``parts(of:)`` of it, when already made.
    /// - Parameter app: the app that took it; nil when none did (no app is mounted at its path).
    func record(
        app: String?, session: String? = nil, request: HTTPRequest, response: HTTPResponse, stub: String? = nil,
        duration: Duration, time: Date = Date(), parts: JournalEntry.PartList?? = nil, proxied: Bool = false,
        patternBudgetSpent: Bool = false
    ) {
        guard isEnabled else { return }
        let (kept, cuts, requestBytes) = JournalBounds.kept(request, bodyLimit: bodyLimit)
        let size = request.body.count
        // The types are looked up now only when the kept headers were cut (and may lack them).
        let bodyType =
            cuts.headers ? JournalEntry.BodyType.noted(JournalBounds.contentType(of: request.headers)) : .inKeptHeaders
        let parts = parts ?? Self.parts(of: request)
        let answer = JournalBounds.kept(response, bodyLimit: bodyLimit)
        let bytes = JournalEntry.fixedBytes + requestBytes + answer.bytes + JournalEntry.bytes(of: parts)
        let anyoneWaits = state.withLock { state in
            state.lastId += 1
            let entry = JournalEntry(
                id: state.lastId, time: time, app: app, session: session, request: kept, cuts: cuts, bodySize: size,
                bodyType: bodyType, parts: parts, stub: stub, response: answer.response,
                responseHeadersTruncated: answer.headersTruncated, responseBodyType: answer.bodyType,
                responseBodyShown: answer.bodyShown, responseBodySize: response.body.count, duration: duration,
                proxied: proxied,
                patternBudgetSpent: patternBudgetSpent)
            while !state.entries.isEmpty, state.entries.count >= capacity || state.bytes + bytes > byteLimit {
                state.dropOldest()
            }
            state.entries.append(Kept(entry: entry, bytes: bytes))
            state.bytes += bytes
            return !state.waiters.isEmpty
        }
        // With none waiting (nearly always), that check of an empty array is all: the entry is
        // not touched after its append, which would copy it (a retain and a release of each
        // of its fields).
        if anyoneWaits { offerNewEntries() }
    }

    /// Offers each waiter the entries newer than it has seen, oldest first, and hands over
    /// what it took. Matching runs outside the lock — a costly pattern holds up no request
    /// being recorded on another loop — within ``PatternBudget/perRequest`` shared among the
    /// waiters; a waiter whose share runs out is ended (``WaitEnding/patternBudgetSpent(entry:steps:)``),
    /// so that no pattern costs every recorded request its steps again. Whoever claims a waiter
    /// under the lock first answers it, once.
    @inline(never)
    private func offerNewEntries() {
        let (waiting, entries) = state.withLock { state -> ([Waiting], [JournalEntry]) in
            guard let oldest = state.waiters.lazy.map(\.checkedThrough).min() else { return ([], []) }
            var start = state.entries.endIndex
            while start > state.entries.startIndex, state.entries[start - 1].entry.id > oldest { start -= 1 }
            return (state.waiters, state.entries[start...].map(\.entry))
        }
        guard let newest = entries.last?.id else { return }
        let share = PatternBudget.perRequest / waiting.count
        let offers = waiting.map { registered -> Offer in
            var budget = PatternBudget(steps: share)
            for entry in entries where entry.id > registered.checkedThrough {
                if registered.waiter.wants(entry, within: &budget) { return .found(entry) }
                if budget.isSpent { return .patternBudgetSpent(entry: entry.id, steps: share) }
            }
            return .checked(through: newest)
        }
        let claimed = state.withLock { state -> [(JournalWaiter, Offer)] in
            var claimed: [(JournalWaiter, Offer)] = []
            for (registered, offer) in zip(waiting, offers) {
                // Gone: answered by another loop's offer, or its wait ended meanwhile.
                guard let index = state.waiters.firstIndex(where: { $0.waiter.id == registered.waiter.id }) else {
                    continue
                }
                if case .checked(let through) = offer {
                    state.waiters[index].checkedThrough = max(state.waiters[index].checkedThrough, through)
                } else {
                    state.waiters.remove(at: index)
                    claimed.append((registered.waiter, offer))
                }
            }
            return claimed
        }
        for (waiter, offer) in claimed {
            switch offer {
            case .found(let entry): waiter.deliver(entry)
            case .patternBudgetSpent(let entry, let steps):
                waiter.end(WaitEnding.patternBudgetSpent(entry: entry, steps: steps))
            case .checked: break
            }
        }
    }

    /// The first entry after `waiter.since` that it wants; when there is none, `waiter` is
    /// registered, and offered every entry recorded since the look. The entries are matched
    /// outside the lock, on a copy taken under it, within one ``PatternBudget``: a wait whose
    /// pattern runs out of steps is refused (422), not kept.
    func firstMatch(orWait waiter: JournalWaiter) -> JournalWaitStart {
        let (entries, lookedThrough, closed) = state.withLock { state in
            var newer: [JournalEntry] = []
            for kept in state.entries where kept.entry.id > waiter.since { newer.append(kept.entry) }
            return (newer, state.lastId, state.closed)
        }
        if let closed { return .refused(closed) }
        var budget = PatternBudget()
        for entry in entries {
            if waiter.wants(entry, within: &budget) { return .found(entry) }
            if budget.isSpent {
                return .refused(WaitEnding.patternBudgetSpent(entry: entry.id, steps: PatternBudget.perRequest))
            }
        }
        let registered = state.withLock { state -> (missed: Bool, refused: HTTPResponse?) in
            if let closed = state.closed { return (false, closed) }
            state.waiters.append(Waiting(waiter: waiter, checkedThrough: lookedThrough))
            return (state.lastId > lookedThrough, nil)
        }
        if let refused = registered.refused { return .refused(refused) }
        // Entries recorded between the look and the registration were offered to the others only.
        if registered.missed { offerNewEntries() }
        return .waiting
    }

    /// Ends every wait on this journal with `response` (``WaitEnding``); with `closing`, every
    /// later wait too (its session has ended).
    func endWaits(with response: HTTPResponse, closing: Bool = false) {
        let ended = state.withLock { state in
            if closing { state.closed = response }
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.waiter)
        }
        for waiter in ended { waiter.end(response) }
    }

    /// Takes a waiter back out (its wait ended); nothing when it has been handed an entry.
    func stopWaiting(_ id: Int) {
        state.withLock { state in state.waiters.removeAll { $0.waiter.id == id } }
    }

    /// Requests waiting for an entry of this journal now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Entries held now.
    var count: Int { state.withLock { $0.entries.count } }

    /// What the entries held now weigh.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The entries oldest first, with how many were pushed out.
    func snapshot() -> (entries: [JournalEntry], dropped: Int) {
        state.withLock { state in
            (state.entries.map(\.entry), state.dropped)
        }
    }

    /// Forgets the entries that pass `condition` (one app's, at its reset); ids keep counting.
    func remove(where condition: (JournalEntry) -> Bool) {
        state.withLock { state in
            state.entries.removeAll { condition($0.entry) }
            state.bytes = state.entries.reduce(0) { $0 + $1.bytes }
        }
    }

    /// Forgets every entry; ids keep counting up, so `since=` stays meaningful.
    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.bytes = 0
            state.dropped = 0
        }
    }
}
