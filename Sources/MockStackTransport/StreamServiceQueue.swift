import CLibevent
import Synchronization

/// The upgraded streams of one loop waiting for it: output to hand to the socket, a close or a
/// drop to carry out. Any thread adds a stream; the first one added wakes the loop (activates
/// one event), and the loop then serves every stream added meanwhile, after the callback it is
/// running. A service event sent to a thousand streams is one wake-up of each loop and one
/// write a stream, not a hop and a `bufferevent` round trip each.
///
/// `@unchecked Sendable`: `add(_:)` is thread-safe (the list's lock, and `event_active`, which
/// takes the base's lock and wakes its loop); the event is freed on the loop, after the
/// connections, whose open streams are the only callers of `add(_:)`.
final class StreamServiceQueue: @unchecked Sendable {
    private let waiting = Mutex<[UpgradedStream]>([])
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
        let first = waiting.withLock { streams in
            streams.append(stream)
            return streams.count == 1
        }
        if first, let event { event_active(event, Int32(EV_TIMEOUT), 1) }
    }

    /// On the loop: every stream waiting, in the order they were added.
    private func serve() {
        let streams = waiting.withLock { streams in
            let taken = streams
            streams = []
            return taken
        }
        for stream in streams { stream.serve() }
    }

    /// On the loop, once its connections are closed.
    func free() {
        if let event { event_free(event) }
        event = nil
    }
}
