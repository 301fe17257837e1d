@testable import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// The real-time journal's waiters (``ActivityWaiter``), as values: who is woken by which
/// activity, answered once, taken out, ended with a closed journal.
@Suite struct ActivityWaiterTests {
    /// A waiter whose answer is there once `ready` is set; what it was handed is kept.
    final class Probe: Sendable {
        let ready = Mutex(false)
        let checks = Mutex(0)
        let received = Mutex<[Int]>([])

        func waiter(id: Int = 1, app: String = "chat", session: String? = nil) -> ActivityWaiter {
            ActivityWaiter(
                id: id, app: app, session: session,
                check: { [self] in
                    checks.withLock { $0 += 1 }
                    return ready.withLock { $0 } ? HTTPResponse(status: 200) : nil
                },
                deliver: { [self] response in received.withLock { $0.append(response.status) } },
                end: { [self] response in received.withLock { $0.append(response.status) } })
        }

        var statuses: [Int] { received.withLock { $0 } }
        var checkCount: Int { checks.withLock { $0 } }
    }

    static let connected = RealtimeActivity(kind: .connected, connection: "a", name: "Server Events")

    @Test func anAnswerThereAlreadyIsFoundAndNothingWaits() {
        let journal = RealtimeJournal()
        let probe = Probe()
        probe.ready.withLock { $0 = true }
        guard case .found(let response) = journal.firstAnswer(orWait: probe.waiter()) else {
            Issue.record("not found")
            return
        }
        #expect(response.status == 200)
        #expect(journal.waiterCount == 0)
    }

    @Test func onlyItsAppsActivityInItsScopeWakesAWaiterAndItIsAnsweredOnce() {
        let journal = RealtimeJournal()
        let probe = Probe()
        guard case .waiting = journal.firstAnswer(orWait: probe.waiter()) else {
            Issue.record("not waiting")
            return
        }
        probe.ready.withLock { $0 = true }
        journal.record(app: "other", session: nil, Self.connected)
        journal.record(app: "chat", session: "s1", Self.connected)
        #expect(probe.checkCount == 1, "looked once when it started, not again for another app or scope")
        #expect(probe.statuses.isEmpty)
        journal.record(app: "chat", session: nil, Self.connected)
        #expect(probe.statuses == [200])
        #expect(journal.waiterCount == 0)
        journal.record(app: "chat", session: nil, Self.connected)
        #expect(probe.statuses == [200] && probe.checkCount == 2)
    }

    @Test func aJournalThatKeepsNothingStillWakesItsWaiters() {
        let journal = RealtimeJournal(capacity: 0)
        let probe = Probe()
        _ = journal.firstAnswer(orWait: probe.waiter())
        probe.ready.withLock { $0 = true }
        journal.record(app: "chat", session: nil, Self.connected)
        #expect(probe.statuses == [200])
        #expect(journal.entries.isEmpty)
    }

    @Test func aStoppedWaiterIsNotWokenAndAClosedJournalRefusesNewOnes() {
        let journal = RealtimeJournal()
        let stopped = Probe()
        let ended = Probe()
        _ = journal.firstAnswer(orWait: stopped.waiter(id: 1))
        _ = journal.firstAnswer(orWait: ended.waiter(id: 2))
        journal.stopWaiting(1)
        #expect(journal.waiterCount == 1)
        journal.endWaits(with: HTTPResponse(status: 410), closing: true)
        #expect(ended.statuses == [410] && stopped.statuses.isEmpty)
        guard case .refused(let response) = journal.firstAnswer(orWait: Probe().waiter(id: 3)) else {
            Issue.record("not refused")
            return
        }
        #expect(response.status == 410)
        #expect(journal.waiterCount == 0)
    }
}
