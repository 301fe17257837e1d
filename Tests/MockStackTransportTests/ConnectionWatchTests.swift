@testable import MockStackTransport
import Testing

/// The sweep's rules, look by look (docs/transport.md#timeouts).
struct ConnectionWatchTests {
    private static let looks = ConnectionWatch.looksPerTimeout

    @Test func anIdleConnectionGoesAfterMoreLooksThanATimeoutHolds() {
        var watch = ConnectionWatch()
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        #expect(watch.look(.idle) == .idledOut)
    }

    @Test func activityStartsTheIdleCountOver() {
        var watch = ConnectionWatch()
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        watch.sawActivity()
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        #expect(watch.look(.busy) == .keep)
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        #expect(watch.look(.idle) == .idledOut)
    }

    @Test func outputThatDoesNotMoveForATimeoutStalls() {
        var watch = ConnectionWatch()
        #expect(watch.look(.sending(delivered: 10)) == .keep)
        for _ in 1..<Self.looks { #expect(watch.look(.sending(delivered: 10)) == .keep) }
        #expect(watch.look(.sending(delivered: 10)) == .stalled)
    }

    @Test func aSlowReaderThatKeepsReadingIsKept() {
        var watch = ConnectionWatch()
        for delivered in UInt64(0)..<100 { #expect(watch.look(.sending(delivered: delivered)) == .keep) }
        // Then it stops: a timeout later it goes.
        for _ in 0..<Self.looks - 1 { #expect(watch.look(.sending(delivered: 99)) == .keep) }
        #expect(watch.look(.sending(delivered: 99)) == .stalled)
    }

    @Test func outputThatDrainsStartsTheStallCountOver() {
        var watch = ConnectionWatch()
        for _ in 0..<Self.looks { #expect(watch.look(.sending(delivered: 5)) == .keep) }
        #expect(watch.look(.busy) == .keep)
        for _ in 0..<Self.looks { #expect(watch.look(.sending(delivered: 5)) == .keep) }
        #expect(watch.look(.sending(delivered: 5)) == .stalled)
    }

    @Test func aConnectionHoldingOutputIsNotIdle() {
        var watch = ConnectionWatch()
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        #expect(watch.look(.sending(delivered: 1)) == .keep)
        for _ in 0..<Self.looks { #expect(watch.look(.idle) == .keep) }
        #expect(watch.look(.idle) == .idledOut)
    }
}
