import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One parallel test worker's private world under `/__session/{id}/`: its own copy of every
/// app in the fixture state and its own journal, so its writes and requests never reach
/// another session.
final class Session: Sendable {
    let id: String
    let mounts: MountTable
    let journal: RequestJournal
    /// Its sockets' activity (the server's real-time journal hears it too).
    let realtime: RealtimeJournal
    /// Random delays asked for by this session's requests, from the server's seed: a session's
    /// delays do not depend on what other sessions do.
    let faults: RequestFaults
    let created: Date

    /// Entries a session's journal keeps at most, and what they may weigh: sessions are many
    /// (256 by default), and a test reads its own few.
    static let journalLimit = 200
    static let journalByteLimit = 1024 * 1024

    init(
        id: String, apps: [any MockApp], journalCapacity: Int, journalBodyLimit: Int, seed: UInt64,
        serverRealtime: RealtimeJournal? = nil
    ) {
        self.id = id
        let copies = apps.map { $0.makeSession() }
        mounts = MountTable(apps: copies)
        journal = RequestJournal(
            capacity: min(journalCapacity, Self.journalLimit), bodyLimit: journalBodyLimit,
            byteLimit: Self.journalByteLimit)
        realtime = RealtimeJournal(
            capacity: min(journalCapacity, Self.journalLimit), valueLimit: journalBodyLimit,
            byteLimit: Self.journalByteLimit)
        for app in copies { RealtimeJournal.observe(app, into: realtime, session: id, also: serverRealtime) }
        faults = RequestFaults(seed: seed)
        created = Date()
    }

    var apps: [any MockApp] { mounts.apps }

    /// The session is dropped: its apps' real-time connections end with it, and the requests
    /// waiting for its journal's entries are answered 410 (``WaitEnding/sessionEnded(_:because:)``),
    /// as is any wait that reaches the journal later; so are those waiting for its Server Events
    /// subscriptions (``WaitEnding/sessionEndedForSubscribers(_:because:)``).
    /// - Parameter reason: why, for the waits' answer (`deleted`, `evicted …`).
    func end(because reason: String) {
        journal.endWaits(with: WaitEnding.sessionEnded(id, because: reason), closing: true)
        realtime.endWaits(with: WaitEnding.sessionEndedForSubscribers(id, because: reason), closing: true)
        for case let app as any RealtimeApp in apps { app.disconnectAll() }
    }

    /// Where the session's paths start: `/__session/{id}`.
    var prefix: String { SessionStore.prefix + "/" + id }

    /// Whether `text` can name a session: 1 to 64 letters, digits, `.`, `_`, `-` or `~`, and not
    /// dots alone (clients remove `.` and `..` segments from URLs).
    static func isValidId(_ text: Substring) -> Bool {
        (1...64).contains(text.utf8.count) && !text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "~"):
                    true
                default: false
                }
            }
    }
}
