#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore
import Synchronization

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
    /// runtime's generic value witnesses (~300 instructions a request).
    private struct Kept {
        var entry: JournalEntry
        var bytes: Int
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
        var waiters: [JournalWaiter] = []
        /// The newest entry offered to the waiters (or looked at by every one of them).
        var offeredThrough = 0

        /// The entries recorded since the last offer, oldest first, offered to the waiters:
        /// each waiter that wants one is taken out of the list, with the first it wants.
        mutating func takeWokenWaiters() -> [(waiter: JournalWaiter, entry: JournalEntry)] {
            var woken: [(waiter: JournalWaiter, entry: JournalEntry)] = []
            var start = entries.endIndex
            while start > entries.startIndex, entries[start - 1].entry.id > offeredThrough { start -= 1 }
            for slot in entries[start...] where !waiters.isEmpty {
                waiters.removeAll { waiter in
                    guard waiter.wants(slot.entry) else { return false }
                    woken.append((waiter, slot.entry))
                    return true
                }
            }
            offeredThrough = lastId
            return woken
        }

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
              let summaries = try? MultipartForm.summaries(of: request.body, boundary: boundary, maximumParts: 1000) else { return nil }
        let bounded = JournalBounds.boundedParts(summaries)
        return JournalEntry.PartList(parts: bounded.parts, dropped: bounded.dropped)
    }

    /// Records one answered request; `parts` is ``parts(of:)`` of it, when already made.
    /// - Parameter app: the app that took it; nil when none did (no app is mounted at its path).
    func record(app: String?, session: String? = nil, request: HTTPRequest, response: HTTPResponse, stub: String? = nil,
                duration: Duration, time: Date = Date(), parts: JournalEntry.PartList?? = nil, proxied: Bool = false) {
        guard isEnabled else { return }
        let (kept, cuts, requestBytes) = JournalBounds.kept(request, bodyLimit: bodyLimit)
        let size = request.body.count
        // The types are looked up now only when the kept headers were cut (and may lack them).
        let bodyType = cuts.headers ? JournalEntry.BodyType.noted(JournalBounds.contentType(of: request.headers)) : .inKeptHeaders
        let parts = parts ?? Self.parts(of: request)
        let answer = JournalBounds.kept(response, bodyLimit: bodyLimit)
        let bytes = JournalEntry.fixedBytes + requestBytes + answer.bytes + JournalEntry.bytes(of: parts)
        let anyoneWaits = state.withLock { state in
            state.lastId += 1
            let entry = JournalEntry(id: state.lastId, time: time, app: app, session: session, request: kept, cuts: cuts, bodySize: size,
                                     bodyType: bodyType, parts: parts, stub: stub, response: answer.response,
                                     responseHeadersTruncated: answer.headersTruncated, responseBodyType: answer.bodyType,
                                     responseBodyShown: answer.bodyShown, responseBodySize: response.body.count, duration: duration, proxied: proxied)
            while !state.entries.isEmpty, state.entries.count >= capacity || state.bytes + bytes > byteLimit { state.dropOldest() }
            state.entries.append(Kept(entry: entry, bytes: bytes))
            state.bytes += bytes
            return !state.waiters.isEmpty
        }
        // With none waiting (nearly always), that check of an empty array is all: the entry is
        // not touched after its append, which would copy it (a retain and a release of each
        // of its fields).
        if anyoneWaits { wakeWaiters() }
    }

    /// Offers the entries not yet offered to the waiters, oldest first, each waiter taking the
    /// first it wants; then hands them over, outside the lock.
    @inline(never)
    private func wakeWaiters() {
        let woken = state.withLock { state in state.takeWokenWaiters() }
        for (waiter, entry) in woken { waiter.deliver(entry) }
    }

    /// The first entry after `waiter.since` that it wants; when there is none, `waiter` is
    /// registered, under the same lock as recording, so that no entry can fall between the
    /// look and the wait.
    func firstMatch(orWait waiter: JournalWaiter) -> JournalWaitStart {
        state.withLock { state in
            if let found = state.entries.first(where: { waiter.wants($0.entry) }) { return .found(found.entry) }
            // Every entry there now has been looked at; the next ones are offered.
            if state.waiters.isEmpty { state.offeredThrough = state.lastId }
            state.waiters.append(waiter)
            return .waiting
        }
    }

    /// Takes a waiter back out (its wait ended); nothing when it has been handed an entry.
    func stopWaiting(_ id: Int) {
        state.withLock { state in state.waiters.removeAll { $0.id == id } }
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
