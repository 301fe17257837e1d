import CLibevent
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The upgraded streams of one loop waiting for it: output to hand to the socket, a close or a
/// drop to carry out. Any thread adds a stream; the first one added wakes the loop (activates
/// one event), and the loop then serves every stream added meanwhile, after the callback it is
/// running. A service event sent to a thousand streams is one wake-up of each loop and one
/// write a stream, not a hop and a `bufferevent` round trip each.
///
/// A pass hands the sockets at most ``passBytes``, past the stream that crosses it; the streams
/// it did not reach, and those added while it ran (a handler that asked for output again), wait
/// for the loop's next turn, after it has polled its sockets. So a burst to many streams never
/// holds up the loop's other connections for long, and the streams are served in turn.
///
/// `@unchecked Sendable`: `add(_:)` is thread-safe (the list's lock, and `event_active`, which
/// takes the base's lock and wakes its loop); the event is freed on the loop, after the
/// connections, whose open streams are the only callers of `add(_:)`.
final class StreamServiceQueue: @unchecked Sendable {
    private let waiting = Mutex(Waiting())

    /// How much one pass hands the sockets: the kernel's copying of it is most of a pass's time.
    static let passBytes = 1 << 20

    private struct Waiting {
        var streams: [UpgradedStream] = []
        /// Whether the loop is serving now: streams added meanwhile wait for its next turn.
        var serving = false
    }

    private var event: OpaquePointer?

    /// Makes the event on `base`, before the loop runs (its worker keeps the queue until
    /// ``free()``). - Returns: false when libevent cannot.
    func attach(to base: OpaquePointer) -> Bool {
        event = event_new(
            base, -1, 0,
            { _, _, arg in
                guard let arg else { return }
                StreamServiceQueue.from(arg).serve()
            }, Unmanaged.passUnretained(self).toOpaque())
        return event != nil
    }

    /// The queue behind its event's argument (its worker keeps it until the loop has ended).
    private static func from(_ arg: UnsafeMutableRawPointer) -> StreamServiceQueue {
        Unmanaged<StreamServiceQueue>.fromOpaque(arg).takeUnretainedValue()
    }

    /// Has the loop serve `stream` soon. A stream adds itself once until it is served (its
    /// `queued` flag), so the list holds no stream twice.
    func add(_ stream: UpgradedStream) {
        let wake = waiting.withLock { waiting in
            waiting.streams.append(stream)
            return waiting.streams.count == 1 && !waiting.serving
        }
        if wake, let event { event_active(event, Int32(EV_TIMEOUT), 1) }
    }

    /// On the loop: the streams waiting, in the order they were added, until ``passBytes`` are
    /// handed out; the rest, and those added meanwhile, are served on the loop's next turn (a
    /// timeout of zero runs after the next poll, where an activation would run within this one).
    private func serve() {
        let streams = waiting.withLock { waiting in
            defer { waiting.streams = [] }
            waiting.serving = true
            return waiting.streams
        }
        var handed = 0
        var served = 0
        while served < streams.count, handed < Self.passBytes {
            handed += streams[served].serve()
            served += 1
        }
        let more = waiting.withLock { waiting in
            waiting.serving = false
            if served < streams.count { waiting.streams.insert(contentsOf: streams[served...], at: 0) }
            return !waiting.streams.isEmpty
        }
        guard more, let event else { return }
        var nextTurn = timeval(tv_sec: 0, tv_usec: 0)
        // Should the timer not take, this turn serves them rather than none.
        if event_add(event, &nextTurn) != 0 { event_active(event, Int32(EV_TIMEOUT), 1) }
    }

    /// On the loop, once its connections are closed.
    func free() {
        if let event { event_free(event) }
        event = nil
    }
}
