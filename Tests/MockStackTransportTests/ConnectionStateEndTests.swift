@testable import MockStackTransport
import Testing

/// How a connection ends, as state transitions without sockets: the client closing its side or
/// breaking the connection in each phase, a deferred answer after the client left, the close.
struct ConnectionStateEndTests {
    @Test func aClientThatOnlyClosedItsSideStillGetsItsAnswers() {
        // Nothing unparsed: every request it sent is answered; the connection ends.
        var idle = ConnectionState()
        #expect(idle.peerClosed(reset: false, waiting: false, outputEmpty: true, inputEmpty: true) == .endAfterOutput)
        #expect(idle.phase == .closing(lingers: false))

        // Requests still unparsed: they are answered first, then it ends.
        var pipelined = ConnectionState()
        #expect(pipelined.peerClosed(reset: false, waiting: false, outputEmpty: true, inputEmpty: false) == .nothing)
        #expect(pipelined.phase == .reading(.init(peerFinished: true)))
        #expect(!pipelined.inputUsedUp(inputEmpty: false))
        #expect(pipelined.inputUsedUp(inputEmpty: true))
    }

    @Test func aBrokenConnectionClosesAtOnceInEveryPhase() {
        var reading = ConnectionState()
        #expect(reading.peerClosed(reset: true, waiting: false, outputEmpty: true, inputEmpty: true) == .close)
        var answering = ConnectionState()
        answering.requestArrived(keepAlive: true)
        #expect(answering.peerClosed(reset: true, waiting: false, outputEmpty: false, inputEmpty: true) == .close)
        var closing = ConnectionState()
        closing.endAfterOutput()
        #expect(closing.peerClosed(reset: true, waiting: false, outputEmpty: false, inputEmpty: true) == .close)
        var upgraded = ConnectionState()
        upgraded.requestArrived(keepAlive: true)
        _ = upgraded.switchedToStream()
        #expect(upgraded.peerClosed(reset: false, waiting: false, outputEmpty: true, inputEmpty: true) == .close)
    }

    @Test func anAnswerGoingOutIsFinishedWhenTheClientOnlyClosedItsSide() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        let sending = state.peerClosed(reset: false, waiting: false, outputEmpty: false, inputEmpty: true)
        #expect(sending == .finishAnswerThenClose)
        #expect(state.closesAfterAnswer)
        #expect(state.answerFinished() == .endAfterOutput)
        // Its output still going out, the end arrives again: it waits for the output.
        let stillSending = state.peerClosed(reset: false, waiting: false, outputEmpty: false, inputEmpty: true)
        #expect(stillSending == .finishAnswerThenClose)
        #expect(state.peerClosed(reset: false, waiting: false, outputEmpty: true, inputEmpty: true) == .close)
    }

    /// A delay, hold or deferred answer pending when the client leaves: the connection closes
    /// (its wait's `clientLeft` runs), and an answer arriving afterwards finds no request.
    @Test func aDeferredAnswerArrivingAfterTheClientLeftIsDropped() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        #expect(state.isAnswering)
        #expect(state.peerClosed(reset: false, waiting: true, outputEmpty: true, inputEmpty: true) == .close)
        #expect(state.close() == false)
        #expect(!state.isAnswering)
        #expect(state.answerFinished() == .nothing)
        #expect(state.inputReady() == .hold)
    }

    @Test func closingTwiceClosesOnceAndAClosedConnectionIgnoresEverything() {
        var state = ConnectionState()
        #expect(state.close() == false)
        #expect(state.close() == nil)
        #expect(state.peerClosed(reset: true, waiting: false, outputEmpty: true, inputEmpty: true) == .nothing)
        #expect(state.outputDrained() == .nothing)
        state.requestArrived(keepAlive: true)
        state.endAfterOutput()
        #expect(state.isClosed)
        #expect(state.switchedToStream() == false)
    }

    @Test func anUpgradedStreamEndsAfterItsOutput() {
        var state = ConnectionState()
        state.requestArrived(keepAlive: true)
        _ = state.switchedToStream()
        #expect(!state.closesAfterAnswer)
        #expect(state.outputDrained() == .streamDrained)
        state.endAfterOutput()
        #expect(state.phase == .closing(lingers: false))
        #expect(state.outputDrained() == .close)
    }
}
