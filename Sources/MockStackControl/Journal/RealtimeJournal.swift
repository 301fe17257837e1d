package import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the apps' real-time connections did (``RealtimeActivity``): connections opened and
/// closed, calls with their acknowledgements, events with their recipient count. Newest last,
/// bounded twice as the request journal is: at most `capacity` entries, and at most `byteLimit`
/// bytes of them in all, the oldest going first; each entry keeps its values within `valueLimit`
/// bytes of JSON (``KeptActivity``) (`GET`/`DELETE /__mockstack/sockets/activity`). Kept beside
/// the request journal, not in it: a socket's calls are not HTTP requests, and counting them
/// among requests would change what every request verification counts. It also wakes the
/// requests waiting on an app's activity (``ActivityWaiter``: `server-events/wait`), whatever
/// its capacity.
package final class RealtimeJournal: Sendable {
    /// One activity, as the journal keeps it.
    struct Entry: Sendable {
        var id: Int
        var time: Date
        var app: String
        var session: String?
        var activity: KeptActivity

        /// `{"id","time","app","session","connection","kind","name","data"}`, and `"answer"` for
        /// a call that was acknowledged, `"recipients"` for an event. A value cut to the limit is
        /// its JSON text's start, as a string, marked `"dataTruncated": true` (or
        /// `"answerTruncated"`) with the full text's size in `"dataSize"` (`"answerSize"`); a cut
        /// name is marked `"nameTruncated": true`.
        var json: JSONValue {
            var object: JSONObject = [
                "id": .number(JSONNumber(id)),
                "time": .string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
                "app": .string(app),
                "session": session.map(JSONValue.string) ?? .null,
                "connection": activity.connection.map(JSONValue.string) ?? .null,
                "kind": .string(activity.kind.rawValue),
                "name": .string(activity.name),
            ]
            if activity.nameTruncated { object["nameTruncated"] = .bool(true) }
            Self.add(activity.data, as: "data", to: &object)
            if let answer = activity.answer { Self.add(answer, as: "answer", to: &object) }
            if let recipients = activity.recipients { object["recipients"] = .number(JSONNumber(recipients)) }
            return .object(object)
        }

        private static func add(_ value: KeptActivity.Value, as key: String, to object: inout JSONObject) {
            object[key] = value.json
            if let size = value.cutFrom {
                object[key + "Truncated"] = .bool(true)
                object[key + "Size"] = .number(JSONNumber(size))
            }
        }
    }

    private struct Kept {
        var entry: Entry
        var bytes: Int
    }

    private struct State {
        var entries: RingBuffer<Kept>
        /// What the kept entries weigh (``KeptActivity/bytes``).
        var bytes = 0
        var lastId = 0
        /// Requests waiting on an app's activity (``firstAnswer(orWait:)``).
        var waiters: [ActivityWaiter] = []
        /// The answer to every wait from now on: the journal's session has ended.
        var closed: HTTPResponse?
    }

    let capacity: Int
    /// UTF-8 bytes of JSON kept of each call's arguments, acknowledgement and event's data.
    let valueLimit: Int
    let byteLimit: Int
    private let state: Mutex<State>

    /// - Parameters:
    ///   - capacity: entries kept (0 records nothing);
    ///   - valueLimit: bytes of JSON kept of each value (`--journal-body-bytes`);
    ///   - byteLimit: what the kept entries may weigh in all; the newest is always kept.
    package init(capacity: Int = 1000, valueLimit: Int = 16 * 1024, byteLimit: Int = RequestJournal.serverByteLimit) {
        self.capacity = max(0, capacity)
        self.valueLimit = max(0, valueLimit)
        self.byteLimit = max(0, byteLimit)
        state = Mutex(State(entries: RingBuffer(capacity: self.capacity)))
    }

    func record(app: String, session: String?, _ activity: RealtimeActivity, time: Date = Date()) {
        record(app: app, session: session, KeptActivity(activity, valueLimit: valueLimit), time: time)
    }

    func record(app: String, session: String?, _ activity: KeptActivity, time: Date = Date()) {
        let anyoneWaits = state.withLock { state in
            // A journal that keeps nothing (`--journal-size 0`) still wakes its waiters.
            guard capacity > 0 else { return !state.waiters.isEmpty }
            state.lastId += 1
            while !state.entries.isEmpty, state.entries.count >= capacity || state.bytes + activity.bytes > byteLimit {
                state.bytes -= state.entries.removeFirst().bytes
            }
            state.entries.append(
                Kept(
                    entry: Entry(id: state.lastId, time: time, app: app, session: session, activity: activity),
                    bytes: activity.bytes))
            state.bytes += activity.bytes
            return !state.waiters.isEmpty
        }
        // With none waiting (nearly always), that check of an empty array is all.
        if anyoneWaits { wakeWaiters(onActivityOf: app, session: session) }
    }

    /// Has each waiter on `app` in `session` look again; whoever claims one that found its
    /// answer (the first to take it out of the list) delivers it, so that it is answered once
    /// when activities come on several loops at once.
    private func wakeWaiters(onActivityOf app: String, session: String?) {
        let woken = state.withLock { $0.waiters.filter { $0.wakes(onActivityOf: app, session: session) } }
        for waiter in woken {
            guard let answer = waiter.check(), claim(waiter.id) else { continue }
            waiter.deliver(answer)
        }
    }

    /// Takes the waiter out; false when it is gone already (answered, or its wait ended).
    private func claim(_ id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
            state.waiters.remove(at: index)
            return true
        }
    }

    /// `waiter`'s answer if it has one now; else it is registered, and looks again at each
    /// activity of its app. It is registered before the first look, so that an activity
    /// reported meanwhile is not missed; its ``ActivityWaiter/check`` runs outside the lock.
    func firstAnswer(orWait waiter: ActivityWaiter) -> ActivityWaitStart {
        let closed = state.withLock { state -> HTTPResponse? in
            if let closed = state.closed { return closed }
            state.waiters.append(waiter)
            return nil
        }
        if let closed { return .refused(closed) }
        // When the claim fails, an activity on another loop found the answer first and has
        // delivered it.
        if let answer = waiter.check(), claim(waiter.id) { return .found(answer) }
        return .waiting
    }

    /// Ends every wait on this journal with `response` (``WaitEnding``); with `closing`, every
    /// later wait too (its session has ended).
    func endWaits(with response: HTTPResponse, closing: Bool = false) {
        let ended = state.withLock { state in
            if closing { state.closed = response }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in ended { waiter.end(response) }
    }

    /// Takes a waiter back out (its wait ended); nothing when it has been answered.
    func stopWaiting(_ id: Int) { _ = claim(id) }

    /// Requests waiting on this journal's activity now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func remove(where shouldRemove: (Entry) -> Bool) {
        state.withLock { state in
            state.entries.removeAll { shouldRemove($0.entry) }
            state.bytes = state.entries.reduce(0) { $0 + $1.bytes }
        }
    }

    /// The entries kept, oldest first.
    var entries: [Entry] { state.withLock { $0.entries.map(\.entry) } }

    /// What the kept entries weigh.
    var bytes: Int { state.withLock { $0.bytes } }

    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.bytes = 0
        }
    }

    /// Has `app`'s connections (when it keeps any) report to this journal, and to `also`'s. Each
    /// activity is cut once, to this journal's limit, for both.
    package static func observe(
        _ app: any MockApp, into journal: RealtimeJournal, session: String? = nil, also server: RealtimeJournal? = nil
    ) {
        guard let realtime = app as? any RealtimeApp else { return }
        let name = app.name
        let valueLimit = journal.valueLimit
        realtime.observeActivity { activity in
            let kept = KeptActivity(activity, valueLimit: valueLimit)
            journal.record(app: name, session: session, kept)
            server?.record(app: name, session: session, kept)
        }
    }
}
