@testable import MockStackTransport
import Testing

/// A connection's requests as state transitions, without sockets: reading, answering, the next
/// request, `100 Continue` (docs/transport.md#the-connections-states).
struct ConnectionStateRequestTests {
    @Test func aNewConnectionReadsAndParsesWhatArrives() {
        var state = ConnectionState()
        #expect(state.phase == .reading(.init()))
        #expect(state.inputReady() == .parse(resumeReading: false))
        #expect(!state.closesAfterAnswer)
    }

    @Test func aKeptAliveRequestIsAnsweredThenTheNextIsRead() {
        var state = ConnectionState()
        state.parsingStarted()
        state.requestArrived(keepAlive: true)
        #expect(state.phase == .answering(.init(closesAfter: false)))
        // Finished inside the parse loop: the loop reads on, not the answer.
        #expect(state.answerFinished() == .readNext(parseNow: false))
        #expect(state.phase == .reading(.init()))
        state.parsingEnded()
        state.requestArrived(keepAlive: true)
        // Finished later (a delay, a deferred answer): the answer starts parsing again.
        #expect(state.answerFinished() == .readNext(parseNow: true))
    }

    @Test func aRequestThatDoesNotKeepTheConnectionEndsItAfterTheAnswer() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: false)
        #expect(state.closesAfterAnswer)
        #expect(state.answerFinished() == .endAfterOutput)
        #expect(state.phase == .closing(lingers: false))
        #expect(state.outputDrained() == .close)
        #expect(state.close() == false)
        #expect(state.isClosed)
    }

    @Test func anAnswerThatSaysCloseEndsTheConnection() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        state.closeAfterAnswer()
        #expect(state.closesAfterAnswer)
        #expect(state.answerFinished() == .endAfterOutput)
    }

    @Test func inputWhileAnsweringWaitsAndAnAnswerFinishedTwiceCountsOnce() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        #expect(state.inputReady() == .hold)
        #expect(state.answerFinished() == .readNext(parseNow: true))
        #expect(state.answerFinished() == .nothing)
        #expect(state.isReading)
    }

    @Test func aParseLoopOnTheStackTakesInputArrivingMeanwhile() {
        var state = ConnectionState()
        #expect(state.inputReady() == .parse(resumeReading: false))
        state.parsingStarted()
        #expect(state.inputReady() == .alreadyParsing)
        state.parsingEnded()
        #expect(state.inputReady() == .parse(resumeReading: false))
    }

    @Test func continueGoesOutOncePerRequestAndOnlyWhenAsked() {
        var state = ConnectionState()
        #expect(state.continueNeeded(expectsContinue: false) == false)
        #expect(state.continueNeeded(expectsContinue: true) == true)
        #expect(state.continueNeeded(expectsContinue: true) == false)
        state.requestArrived(keepAlive: true)
        #expect(state.continueNeeded(expectsContinue: true) == false)
        _ = state.answerFinished()
        // The next request may ask again.
        #expect(state.continueNeeded(expectsContinue: true) == true)
    }

    @Test func aRefusalClosesAfterItsAnswerAndLingersWhenAsked() {
        var lingering = ConnectionState()
        lingering.requestRefused(lingers: true)
        #expect(lingering.phase == .answering(.init(closesAfter: true, lingers: true)))
        #expect(lingering.answerFinished() == .endAfterOutput)
        #expect(lingering.phase == .closing(lingers: true))
        #expect(lingering.close() == true)

        var plain = ConnectionState()
        plain.requestRefused(lingers: false)
        #expect(plain.answerFinished() == .endAfterOutput)
        #expect(plain.close() == false)
    }

    @Test func aHangHoldsTheAnsweringConnectionOnly() {
        var state = ConnectionState()
        state.hold()
        #expect(!state.isHeld)
        state.requestArrived(keepAlive: true)
        state.hold()
        #expect(state.isHeld)
        #expect(state.close() == false)
        #expect(!state.isHeld)
    }
}
