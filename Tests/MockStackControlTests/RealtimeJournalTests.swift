@testable import MockStackControl
import MockStackCore
import Testing

/// The socket activity journal's bounds, as values.
@Suite struct RealtimeJournalTests {
    static func call(_ text: String) -> RealtimeActivity {
        RealtimeActivity(kind: .call, connection: "c", name: "people.find", data: .array([.string(text)]))
    }

    @Test func entriesAreBoundedByWeightTheOldestGoingFirst() throws {
        let journal = RealtimeJournal(capacity: 1_000, valueLimit: 1_024, byteLimit: 10_000)
        for index in 0..<20 { journal.record(app: "a", session: nil, Self.call(String(repeating: "x", count: 900) + String(index + 10))) }
        let entries = journal.entries
        let weight = try #require(entries.first?.activity.bytes)
        #expect(entries.count == 10_000 / weight)
        #expect(entries.last?.id == 20)
        #expect(journal.bytes == entries.count * weight)
        #expect(journal.bytes <= 10_000)
        // Taking entries out (an app's reset) takes their weight out too.
        journal.remove { $0.id > 18 }
        #expect(journal.bytes == (entries.count - 2) * weight)
        journal.clear()
        #expect(journal.bytes == 0)
        #expect(journal.entries.isEmpty)
    }

    @Test func aValueIsWeighedOnlyUpToItsLimit() throws {
        #expect(KeptActivity.weight(of: ["a", 1], budget: 1_000) == 3 * KeptActivity.bytesPerValue + 2)
        #expect(KeptActivity.weight(of: .array(Array(repeating: .null, count: 100)), budget: 1_000) == nil)
        let kept = KeptActivity(Self.call(String(repeating: "é", count: 600)), valueLimit: 1_001)
        // Cut at a scalar's start: `["` and 499 two-byte scalars.
        guard case .text(let text, let size) = kept.data else { Issue.record("not cut"); return }
        #expect(text.utf8.count == 1_000)
        #expect(size == 1_204)
        #expect(kept.bytes == KeptActivity.fixedBytes + "people.find".utf8.count + 1_000)
    }
}
