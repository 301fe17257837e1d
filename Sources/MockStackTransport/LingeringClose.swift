import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps reading (and discarding) from a socket after the 413 that refused its body, so the
/// client, still sending, reads the answer instead of a reset.
///
/// Closing a socket with unread bytes makes the kernel send a reset, which can overtake the
/// answer; reading the whole declared body *before* answering would leave a client that
/// declares 10 GB hearing nothing until the timeout. So, as nginx does, the answer goes out at
/// once, the sending side is shut (a FIN ends the answer), and this reads the socket until the
/// client stops, goes quiet for ``quietSeconds`` or ``limitSeconds`` pass, then closes it. The
/// socket is taken from its bufferevent first (``HTTPConnection/close()``), not duplicated: a
/// duplicate would keep it alive in epoll after the bufferevent's close, which the changelist
/// backend forbids.
final class LingeringClose {
    static let quietSeconds = 2
    static let limitSeconds = 10
    /// Read at most this much per wake-up, so a fast sender cannot hold the loop.
    static let bytesPerWakeUp = 1 << 20

    private unowned let worker: Worker
    private let socket: Int32
    private var event: OpaquePointer?
    private let deadline: UInt64

    /// Starts lingering on `socket`, which it now owns; closes it at once if it cannot.
    static func start(worker: Worker, socket: Int32) {
        let drain = LingeringClose(worker: worker, socket: socket)
        if drain.event != nil { worker.lingering.append(drain) } else { SystemCalls.close(socket) }
    }

    private init(worker: Worker, socket: Int32) {
        self.worker = worker
        self.socket = socket
        deadline = MonotonicClock.nanoseconds() + UInt64(Self.limitSeconds) * 1_000_000_000
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard
            let event = event_new(
                worker.base, socket, Int16(EV_READ | EV_PERSIST),
                { _, what, arg in
                    guard let arg else { return }
                    LingeringClose.from(arg).readable(timedOut: what & Int16(EV_TIMEOUT) != 0)
                }, me)
        else { return }
        var quiet = timeval(tv_sec: Self.quietSeconds, tv_usec: 0)
        guard worker.logger.succeeded(event_add(event, &quiet), "event_add", "closing the refused socket at once")
        else {
            event_free(event)
            return
        }
        self.event = event
    }

    /// The drain behind its event's argument (the worker's `lingering` list keeps it alive).
    private static func from(_ arg: UnsafeMutableRawPointer) -> LingeringClose {
        Unmanaged<LingeringClose>.fromOpaque(arg).takeUnretainedValue()
    }

    private func readable(timedOut: Bool) {
        guard !timedOut, MonotonicClock.nanoseconds() < deadline else { return finish() }
        var read = 0
        while read < Self.bytesPerWakeUp {
            switch worker.discardBuffer.withUnsafeMutableBytes({
                SystemCalls.receive(socket, into: $0, flags: Int32(MSG_DONTWAIT))
            }) {
            case .success(let count) where count > 0: read += count
            case .failure(let error) where error.isTransient: return
            case .success, .failure: return finish()  // EOF, or the client reset
            }
        }
    }

    /// Closes the socket and forgets the drain. Also called when the loop ends.
    func finish() {
        guard let event else { return }
        event_free(event)
        self.event = nil
        SystemCalls.close(socket)
        worker.lingering.removeAll { $0 === self }
    }
}
