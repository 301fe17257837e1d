import CLibevent
import MockStackCore

/// A deferred answer a connection waits for, and the request it answers.
struct AwaitedAnswer {
    let answer: DeferredAnswer
    let exchange: Exchange
}

extension HTTPConnection {
    /// Waits for a deferred answer (``Delivery/deferred(_:)``) with the loop free: the request
    /// stays the one being answered (requests pipelined behind it wait in the input), reading
    /// stays on so that a client that leaves is noticed at once, and a timer stands for the
    /// answer's timeout. A completion from any thread wakes this loop through libevent
    /// (``Worker/runOnLoop(after:_:)``: `event_base_once`), and the answer goes out from here.
    ///
    /// - Parameter timeoutResponse: sent when the timeout passes first.
    func awaitAnswer(_ answer: DeferredAnswer, orElse timeoutResponse: HTTPResponse, _ exchange: Exchange) {
        // A request read after a graceful stop began waits for nothing.
        if worker.isDraining, answer.end(.dropped) { return answerStopping(exchange) }
        let target = ConnectionTarget(self)
        let worker = worker
        switch answer.attach({ response in
            worker.runOnLoop { _ in target.connection?.answerArrived(response, for: answer) }
        }) {
        case .waiting: break
        case .completed(let early): return deliver(early, exchange)
        case .ended: return sendWhole(timeoutResponse, exchange: exchange)
        }
        awaitedAnswer = AwaitedAnswer(answer: answer, exchange: exchange)
        wait(
            milliseconds: answer.timeoutMilliseconds,
            then: { [self] in
                // A completion that beat the timer is on its way (`answerArrived`) and sends itself.
                guard awaitedAnswer?.answer === answer, answer.end(.timedOut) else { return }
                awaitedAnswer = nil
                sendWhole(timeoutResponse, exchange: exchange)
            },
            clientLeft: { [self] in
                awaitedAnswer = nil
                _ = answer.end(.dropped)
                finish(exchange, status: 0, bytes: 0, note: "client gone")
            })
    }

    /// On the loop: the answer a deferred delivery waited for, unless the connection has moved
    /// on (closed, or timed out first).
    private func answerArrived(_ response: HTTPResponse, for answer: DeferredAnswer) {
        guard state.isAnswering, let awaited = awaitedAnswer, awaited.answer === answer else { return }
        awaitedAnswer = nil
        cancelWait()
        deliver(response, awaited.exchange)
    }

    /// The connection closed after the timer fired and before the completion that beat it
    /// arrived: the request ends as its client gone.
    func awaitedAnswerLost(_ awaited: AwaitedAnswer) {
        awaitedAnswer = nil
        finish(awaited.exchange, status: 0, bytes: 0, note: "client gone")
    }

    /// A graceful stop: a deferred answer still awaited is given up, and the client told so
    /// with a 503 that closes the connection.
    func stopAwaitingAnswer() {
        guard state.isAnswering, let awaited = awaitedAnswer, awaited.answer.end(.dropped) else { return }
        awaitedAnswer = nil
        cancelWait()
        answerStopping(awaited.exchange)
    }

    /// The 503 that closes the connection: the answer the request waits for will not come.
    private func answerStopping(_ exchange: Exchange) {
        state.closeAfterAnswer()
        let body = worker.errorBody(503, "The server is stopping: the answer this request waited for will not come")
        sendWhole(.json(503, bytes: body, headers: ["Connection": "close"]), exchange: exchange)
    }
}

/// A connection reached from another thread's wake-up, without keeping it alive: read only on
/// its loop's thread, where it is nil once the connection has gone.
private final class ConnectionTarget: @unchecked Sendable {
    weak var connection: HTTPConnection?

    init(_ connection: HTTPConnection) { self.connection = connection }
}
