#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import MockStackCore
import Synchronization

/// What the apps' real-time connections did (``RealtimeActivity``): connections opened and
/// closed, calls with their acknowledgements, events with their recipient count. Newest last,
/// at most `capacity` entries, the oldest going first (`GET`/`DELETE
/// /__mockstack/sockets/activity`). Kept beside the request journal, not in it: a socket's calls
/// are not HTTP requests, and counting them among requests would change what every request
/// verification counts.
package final class RealtimeJournal: Sendable {
    /// One activity, as the journal keeps it.
    struct Entry: Sendable {
        var id: Int
        var time: Date
        var app: String
        var session: String?
        var activity: RealtimeActivity

        /// `{"id","time","app","session","connection","kind","name","data"}`, and `"answer"` for
        /// a call that was acknowledged, `"recipients"` for an event.
        var json: JSONValue {
            var object: JSONObject = [
                "id": .number(JSONNumber(id)),
                "time": .string(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
                "app": .string(app),
                "session": session.map(JSONValue.string) ?? .null,
                "connection": activity.connection.map(JSONValue.string) ?? .null,
                "kind": .string(activity.kind.rawValue),
                "name": .string(activity.name),
                "data": activity.data,
            ]
            if let answer = activity.answer { object["answer"] = answer }
            if let recipients = activity.recipients { object["recipients"] = .number(JSONNumber(recipients)) }
            return .object(object)
        }
    }

    let capacity: Int
    private let state: Mutex<(entries: RingBuffer<Entry>, lastId: Int)>

    /// - Parameter capacity: entries kept (0 records nothing).
    package init(capacity: Int = 1000) {
        self.capacity = max(0, capacity)
        state = Mutex((RingBuffer(capacity: self.capacity), 0))
    }

    func record(app: String, session: String?, _ activity: RealtimeActivity, time: Date = Date()) {
        guard capacity > 0 else { return }
        state.withLock { state in
            state.lastId += 1
            if state.entries.isFull { state.entries.removeFirst() }
            state.entries.append(Entry(id: state.lastId, time: time, app: app, session: session, activity: activity))
        }
    }

    /// The entries kept, oldest first.
    var entries: [Entry] { state.withLock { Array($0.entries) } }

    func clear() { state.withLock { $0.entries.removeAll() } }

    func remove(where shouldRemove: (Entry) -> Bool) { state.withLock { $0.entries.removeAll(where: shouldRemove) } }

    /// Has `app`'s connections (when it keeps any) report to this journal, and to `also`'s.
    package static func observe(_ app: any MockApp, into journal: RealtimeJournal, session: String? = nil, also server: RealtimeJournal? = nil) {
        guard let realtime = app.realtime else { return }
        let name = app.name
        realtime.observeActivity { activity in
            journal.record(app: name, session: session, activity)
            server?.record(app: name, session: session, activity)
        }
    }
}
