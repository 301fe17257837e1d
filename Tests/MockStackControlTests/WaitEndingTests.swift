@testable import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// A `requests/wait` ends with its scope, at once and in the control plane's error format,
/// rather than holding one of the server's wait places to its timeout: 410 when its session
/// ends (deleted, evicted, dropped by a server reset), 409 when its journal is reset.
@Suite struct WaitEndingTests {
    let harness = ControlHarness()

    private func wait(in scope: String = "") throws -> WaitTests.Delivered {
        try WaitTests.Delivered(harness.send(.post, scope + "/__mockstack/requests/wait", json: ["pattern": ["path": "/test/api/Hello"], "timeoutMs": 300_000]))
    }

    private var serverWaits: JSONValue? { harness.json(.get, "/__mockstack/requests/wait")["waiting"] }

    private static func sessionEnded(_ id: String, _ reason: String) -> JSONValue {
        ["status": 410, "error": "Gone",
         "message": .string("Session '\(id)' ended while this request waited for a journal entry (\(reason)); no request of it can be recorded any more")]
    }

    @Test func deletingTheSessionAnswersItsWaits410() throws {
        let waiting = try wait(in: "/__session/s1")
        #expect(serverWaits == 1)
        #expect(harness.send(.delete, "/__mockstack/sessions/s1").status == 204)
        #expect(waiting.responses.map(\.status) == [410])
        #expect(waiting.json == Self.sessionEnded("s1", "deleted"))
        #expect(serverWaits == 0, "its place is free again")
    }

    @Test func aSessionEvictedPastTheLimitAnswersItsWaits410() throws {
        let waiting = try wait(in: "/__session/s1")
        // The harness keeps 4 sessions: the fifth evicts the least recently used, s1.
        for id in ["s2", "s3", "s4", "s5"] { harness.send(.get, "/__session/\(id)/test/api/Goodbye") }
        #expect(waiting.json == Self.sessionEnded("s1", "evicted as the least recently used, past --max-sessions 4"))
        #expect(serverWaits == 0)
    }

    @Test func aServerResetAnswersTheServersWaits409AndTheSessions410() throws {
        let onServer = try wait()
        let inSession = try wait(in: "/__session/s1")
        #expect(harness.send(.post, "/__mockstack/reset").status == 200)
        #expect(onServer.json == ["status": 409, "error": "Conflict",
                                  "message": "The journal was reset while this request waited for an entry; start the wait again if it is still wanted"])
        #expect(inSession.json == Self.sessionEnded("s1", "dropped by a reset of the whole server"))
        #expect(serverWaits == 0)
        // A wait started after the reset waits as usual, and is answered by the next request.
        let next = try wait()
        harness.send(.get, "/test/api/Hello")
        #expect(next.responses.map(\.status) == [200])
    }

    @Test func resettingOneSessionAnswersItsWaits409AndLeavesTheOthers() throws {
        let s1 = try wait(in: "/__session/s1")
        let s2 = try wait(in: "/__session/s2")
        #expect(harness.send(.post, "/__mockstack/reset?session=s1").status == 200)
        #expect(s1.responses.map(\.status) == [409])
        #expect(s2.responses.isEmpty)
        #expect(harness.send(.post, "/__session/s2/__mockstack/reset").status == 200)
        #expect(s2.responses.map(\.status) == [409])
        #expect(serverWaits == 0)
    }

    /// A wait that reaches a session's journal after the session ended (its request found the
    /// session just before) is refused at once, not left waiting on a journal nobody records to.
    @Test func aWaitOnTheJournalOfAnEndedSessionIsRefusedAtOnce() {
        let journal = RequestJournal(capacity: 10)
        journal.endWaits(with: WaitEnding.sessionEnded("s1", because: "deleted"), closing: true)
        let waiter = JournalWaiter(id: 1, since: 0, matches: { _, _ in true }, deliver: { _ in Issue.record("delivered") },
                                   end: { _ in Issue.record("ended") })
        guard case .refused(let response) = journal.firstMatch(orWait: waiter) else {
            Issue.record("not refused")
            return
        }
        #expect(response.status == 410)
        #expect(journal.waiterCount == 0)
    }

    /// Matching runs outside the journal's lock: a pattern's work never holds up a request being
    /// recorded on another loop (here the matcher itself reads the journal, which under the
    /// lock would deadlock).
    @Test func waitersAreMatchedOutsideTheJournalsLock() {
        let journal = RequestJournal(capacity: 10)
        let request = HTTPRequest(method: .get, target: "/a")
        journal.record(app: nil, request: request, response: HTTPResponse(status: 200), duration: .zero)
        let found = JournalWaiter(id: 1, since: 0, matches: { _, _ in journal.count > 0 }, deliver: { _ in }, end: { _ in })
        guard case .found(let entry) = journal.firstMatch(orWait: found) else {
            Issue.record("not found")
            return
        }
        #expect(entry.id == 1)
        let delivered = Received()
        let later = JournalWaiter(id: 2, since: 1, matches: { _, _ in journal.waiterCount == 1 }, deliver: { delivered.add($0.id) }, end: { _ in })
        guard case .waiting = journal.firstMatch(orWait: later) else {
            Issue.record("not waiting")
            return
        }
        journal.record(app: nil, request: request, response: HTTPResponse(status: 200), duration: .zero)
        #expect(delivered.ids == [2])
    }

    final class Received: Sendable {
        private let received = Mutex<[Int]>([])
        func add(_ id: Int) { received.withLock { $0.append(id) } }
        var ids: [Int] { received.withLock { $0 } }
    }
}
