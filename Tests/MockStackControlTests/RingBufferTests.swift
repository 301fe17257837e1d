@testable import MockStackControl
import Testing

/// The journals' ring: oldest first however often it wraps, the oldest leaving first, and
/// a removed element let go at once.
@Suite struct RingBufferTests {
    @Test func keepsOrderAcrossWraps() {
        var ring = RingBuffer<Int>(capacity: 3)
        #expect(ring.isEmpty && !ring.isFull)
        for value in 1...3 { ring.append(value) }
        #expect(ring.isFull)
        #expect(Array(ring) == [1, 2, 3])
        for value in 4...10 {
            #expect(ring.removeFirst() == value - 3)
            ring.append(value)
            #expect(Array(ring) == Array((value - 2)...value))
        }
        #expect(ring[0] == 8 && ring[2] == 10)
        #expect(Array(ring[1...]) == [9, 10])
    }

    @Test func removalsBeforeTheFirstWrapKeepTheNextSlotInOrder() {
        var ring = RingBuffer<String>(capacity: 3)
        ring.append("a")
        #expect(ring.removeFirst() == "a")
        for value in ["b", "c", "d"] { ring.append(value) }
        #expect(Array(ring) == ["b", "c", "d"])
        #expect(ring.removeFirst() == "b")
        ring.append("e")
        #expect(Array(ring) == ["c", "d", "e"])
    }

    @Test func removeAllWhereKeepsTheRestInOrder() {
        var ring = RingBuffer<Int>(capacity: 4)
        for value in 1...4 { ring.append(value) }
        ring.removeFirst()
        ring.append(5)
        ring.removeAll { $0 % 2 == 0 }
        #expect(Array(ring) == [3, 5])
        ring.append(6)
        ring.append(7)
        #expect(ring.isFull && Array(ring) == [3, 5, 6, 7])
        ring.removeAll()
        #expect(ring.isEmpty && ring.capacity == 4)
    }

    @Test func aRemovedElementIsLetGoAtOnce() {
        final class Tracked {}
        var ring = RingBuffer<Tracked>(capacity: 2)
        weak var first: Tracked?
        do {
            let element = Tracked()
            first = element
            ring.append(element)
        }
        ring.append(Tracked())
        #expect(first != nil)
        ring.removeFirst()
        #expect(first == nil)
    }
}
