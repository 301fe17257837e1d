import Foundation
import MockStackCore
import Synchronization
import Testing

/// The slot an app reports real-time activity through: the observer it calls stays the one set,
/// however many reports go through it.
@Suite struct RealtimeActivitySlotTests {
    @Test func reportsReachTheObserverAtTheSameDepthEveryTime() {
        let slot = RealtimeActivitySlot()
        let depths = Mutex<[Int]>([])
        #expect(!slot.isObserved)
        slot.report(RealtimeActivity(kind: .connected, connection: "a", name: "unheard"))
        slot.set { _ in depths.withLock { $0.append(Thread.callStackSymbols.count) } }
        #expect(slot.isObserved)
        for _ in 0..<200 { slot.report(RealtimeActivity(kind: .connected, connection: "a", name: "x")) }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 200)
        // A closure kept in the Mutex as a function value came back wrapped once more each time.
        #expect(Set(seen).count == 1)
    }

    @Test func setReplacesTheObserver() {
        let slot = RealtimeActivitySlot()
        let heard = Mutex<[String]>([])
        slot.set { activity in heard.withLock { $0.append("first " + activity.name) } }
        slot.report(RealtimeActivity(kind: .connected, connection: nil, name: "one"))
        slot.set { activity in heard.withLock { $0.append("second " + activity.name) } }
        slot.report(RealtimeActivity(kind: .connected, connection: nil, name: "two"))
        #expect(heard.withLock { $0 } == ["first one", "second two"])
    }
}
