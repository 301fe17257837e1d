import Synchronization

/// An answer that comes later (``Delivery/deferred(_:)``): the responder returns at once, the
/// transport keeps the request open without holding its loop, and whoever has the answer
/// calls ``complete(with:)`` from any thread. When ``timeoutMilliseconds`` pass first, the
/// response that carried this delivery is sent instead.
///
/// Exactly one ending happens: the completion, the timeout, or the drop (the client left, or
/// the server is stopping); ``released`` hears which, once.
///
/// Equal only to itself (by identity), so that ``Delivery`` stays `Equatable`.
public final class DeferredAnswer: Sendable, Equatable, CustomStringConvertible {
    /// How the wait ended.
    public enum Ending: Sendable, Equatable {
        /// ``complete(with:)`` was called in time.
        case completed
        /// The timeout passed first; the timeout answer was sent.
        case timedOut
        /// The client left, or the server stopped, while it waited.
        case dropped
    }

    /// How long the transport waits for ``complete(with:)``, at most.
    public let timeoutMilliseconds: Int
    private let released: @Sendable (Ending) -> Void
    private let state = Mutex(State.waiting)

    private enum State {
        /// Not yet taken up by the transport.
        case waiting
        /// Completed before the transport took it up.
        case completedEarly(HTTPResponse)
        /// The transport waits; completion calls this.
        case attached(@Sendable (HTTPResponse) -> Void)
        case finished
    }

    /// - Parameters:
    ///   - timeoutMilliseconds: how long to wait for the answer (0 or more);
    ///   - released: called once, from the thread that ends the wait, when it ends (a waiter's
    ///     bookkeeping goes here).
    public init(timeoutMilliseconds: Int, released: @escaping @Sendable (Ending) -> Void = { _ in }) {
        self.timeoutMilliseconds = max(0, timeoutMilliseconds)
        self.released = released
    }

    /// Completes the wait with `response`, from any thread.
    /// - Returns: whether `response` will be sent: false when the wait has already ended
    ///   (completed, timed out, or dropped).
    @discardableResult
    public func complete(with response: HTTPResponse) -> Bool {
        // The transport is woken under the lock: a wait it drops (taking the lock) cannot end,
        // nor its loop go away, while the wake-up is being queued on that loop.
        let accepted = state.withLock { state in
            switch state {
            case .waiting:
                state = .completedEarly(response)
                return true
            case .attached(let wake):
                state = .finished
                wake(response)
                return true
            case .completedEarly, .finished:
                return false
            }
        }
        if accepted { released(.completed) }
        return accepted
    }

    /// Whether the wait has ended, one way or another (a completion not yet taken up by the
    /// transport counts).
    public var hasEnded: Bool {
        state.withLock { state in
            if case .waiting = state { return false }
            if case .attached = state { return false }
            return true
        }
    }

    /// What ``attach(_:)`` found.
    public enum Attachment: Sendable {
        /// Nothing yet: a completion will call the wake-up.
        case waiting
        /// Completed before it was taken up: send this now.
        case completed(HTTPResponse)
        /// Ended already (or taken up before): send the timeout answer now.
        case ended
    }

    /// For the transport: from now on a completion calls `wake`, on the completing thread.
    public func attach(_ wake: @escaping @Sendable (HTTPResponse) -> Void) -> Attachment {
        state.withLock { state in
            switch state {
            case .waiting:
                state = .attached(wake)
                return .waiting
            case .completedEarly(let response):
                state = .finished
                return .completed(response)
            case .attached, .finished:
                return .ended
            }
        }
    }

    /// For the transport: the wait ends without an answer (`.timedOut` or `.dropped`).
    /// - Returns: true when it did; false when a completion came first (its wake-up is on
    ///   its way, and brings the answer).
    public func end(_ ending: Ending) -> Bool {
        let ended = state.withLock { state in
            switch state {
            case .waiting, .attached:
                state = .finished
                return true
            case .completedEarly, .finished:
                return false
            }
        }
        if ended { released(ending) }
        return ended
    }

    public static func == (lhs: DeferredAnswer, rhs: DeferredAnswer) -> Bool { lhs === rhs }

    public var description: String { "DeferredAnswer(timeoutMilliseconds: \(timeoutMilliseconds))" }
}
