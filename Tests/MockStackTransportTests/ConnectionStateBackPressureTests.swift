@testable import MockStackTransport
import Testing

/// The back-pressure rules as state transitions, without sockets: parsing waits behind unsent
/// output, reading pauses past the unparsed-input bound and resumes when parsing does
/// (docs/transport.md#limits).
struct ConnectionStateBackPressureTests {
    private static let mark = ConnectionState.outputHighWater
    private static let bound = ConnectionState.pendingInputLimit

    @Test func parsingWaitsWhileTheOutputIsAboveTheMarkAndGoesOnWhenItDrains() {
        var state = ConnectionState()
        #expect(state.outputHoldsParsing(unsent: Self.mark, throttled: false) == false)
        #expect(state.outputHoldsParsing(unsent: Self.mark + 1, throttled: false) == true)
        #expect(state.phase == .reading(.init(waitingForOutput: true)))
        #expect(state.outputDrained() == .parse)
        #expect(state.phase == .reading(.init()))
        // Drained again with nothing waiting: nothing to do.
        #expect(state.outputDrained() == .nothing)
    }

    @Test func aThrottledAnswerStillGoingOutHoldsTheNextRequest() {
        var state = ConnectionState()
        #expect(state.outputHoldsParsing(unsent: 0, throttled: true) == false)
        #expect(state.outputHoldsParsing(unsent: 1, throttled: true) == true)
        #expect(state.outputDrained() == .parse)
    }

    @Test func readingPausesPastTheInputBoundAndResumesWhenParsingDoes() {
        var state = ConnectionState()
        #expect(state.outputHoldsParsing(unsent: Self.mark + 1, throttled: false) == true)
        #expect(state.holdInput(unparsed: Self.bound) == false)
        #expect(state.holdInput(unparsed: Self.bound + 1) == true)
        // Paused once: more input cannot arrive, and is not paused again.
        #expect(state.holdInput(unparsed: Self.bound + 2) == false)
        #expect(state.outputDrained() == .parse)
        #expect(state.inputReady() == .parse(resumeReading: true))
        #expect(state.inputReady() == .parse(resumeReading: false))
    }

    @Test func inputHeldWhileAnsweringResumesAtTheNextRequest() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        #expect(state.inputReady() == .hold)
        #expect(state.holdInput(unparsed: Self.bound + 1) == true)
        #expect(state.phase == .answering(.init(inputHeld: true)))
        #expect(state.answerFinished() == .readNext(parseNow: true))
        #expect(state.phase == .reading(.init(inputHeld: true)))
        #expect(state.inputReady() == .parse(resumeReading: true))
    }

    @Test func anEndingConnectionHoldsNoInputItWillNotRead() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: false)
        _ = state.answerFinished()
        #expect(state.inputReady() == .hold)
        #expect(state.holdInput(unparsed: Self.bound + 1) == false)
        #expect(state.outputHoldsParsing(unsent: Self.mark + 1, throttled: false) == false)
    }

    @Test func anUpgradeResumesInputThatWasHeld() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        #expect(state.holdInput(unparsed: Self.bound + 1) == true)
        #expect(state.switchedToStream() == true)
        #expect(state.isUpgraded)
        #expect(state.inputReady() == .toStream)
        #expect(state.holdInput(unparsed: Self.bound + 1) == false)

        var unheld = ConnectionState()
        unheld.requestArrived(keepAlive: true)
        #expect(unheld.switchedToStream() == false)
        #expect(unheld.isUpgraded)
    }

    /// The send deadline counts what the client acknowledged: a connection whose output moves
    /// is kept however long it takes, one whose output stands still for the timeout stalls.
    @Test func theSendDeadlineFollowsAcknowledgedProgress() {
        var state = ConnectionState()
        for delivered in UInt64(0)..<10 { #expect(state.watch.look(.sending(delivered: delivered)) == .keep) }
        for _ in 1..<ConnectionWatch.looksPerTimeout { #expect(state.watch.look(.sending(delivered: 9)) == .keep) }
        #expect(state.watch.look(.sending(delivered: 9)) == .stalled)
    }
}
