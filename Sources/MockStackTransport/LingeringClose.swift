import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps reading (and discarding) from a connection after the 413 that refused its body, so
/// the client, still sending, reads the answer instead of a reset.
///
/// evhttp's own `EVHTTP_SERVER_LINGERING_CLOSE` reads the whole declared body *before* it
/// answers, so a client that declares 10 GB — or a `Content-Length` that overflows — hears
/// nothing until the idle timeout. Without it evhttp answers at once and then closes the
/// socket, and closing with unread bytes makes the kernel send a reset, which can overtake
/// the answer. So, as nginx does, the answer goes out at once and the socket lingers: before
/// evhttp closes its descriptor, the tap duplicates it; evhttp's `shutdown(SHUT_WR)` still
/// ends the reply with a FIN, and this drain reads until the client stops, goes quiet for
/// ``quietSeconds``, or ``limitSeconds`` pass, then closes the duplicate.
final class LingeringClose {
    static let quietSeconds = 2
    static let limitSeconds = 10
    private static let scratchSize = 64 * 1024

    private unowned let worker: Worker
    private let descriptor: Int32
    private var event: OpaquePointer?
    private let deadline: UInt64

    /// Starts lingering on a duplicate of `socket`; nil when it cannot (the connection then
    /// simply closes when evhttp closes it).
    init?(worker: Worker, socket: Int32) {
        let copy = dup(socket)
        guard copy >= 0 else { return nil }
        self.worker = worker
        descriptor = copy
        deadline = Clock.nowNanoseconds() + UInt64(Self.limitSeconds) * 1_000_000_000
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let event = event_new(worker.base, copy, Int16(EV_READ | EV_PERSIST | EV_TIMEOUT), { _, what, arg in
            guard let arg else { return }
            Unmanaged<LingeringClose>.fromOpaque(arg).takeUnretainedValue().readable(timedOut: what & Int16(EV_TIMEOUT) != 0)
        }, me) else {
            close(copy)
            return nil
        }
        self.event = event
        var quiet = timeval(tv_sec: Self.quietSeconds, tv_usec: 0)
        event_add(event, &quiet)
    }

    private func readable(timedOut: Bool) {
        guard !timedOut, Clock.nowNanoseconds() < deadline else { return finish() }
        var scratch = [UInt8](repeating: 0, count: Self.scratchSize)
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return finish()                     // EOF, or the client reset
        }
    }

    /// Closes the duplicate and forgets the drain. Also called when the loop ends.
    func finish() {
        guard let event else { return }
        event_free(event)
        self.event = nil
        close(descriptor)
        worker.lingering.removeAll { $0 === self }
    }
}
