import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// What a listener does when `accept` fails for want of descriptors or memory.
///
/// libevent's listener reads its socket level-triggered: with no error callback, a failed
/// `accept` (EMFILE at the open-file limit) is logged and the socket, still readable, is tried
/// again on the very next turn — a loop at 100 % CPU writing megabytes of warnings a second,
/// while the clients already connected wait behind it. Here the listener stops accepting for
/// ``pause`` and tries again; the connections waiting meanwhile stay in the kernel's backlog
/// and are accepted once descriptors are free. One warning line per ``reportInterval`` says so.
final class AcceptBackoff {
    /// How long accepting stops after a failure.
    static let pause = timeval(tv_sec: 0, tv_usec: 100_000)
    /// The least time between two warnings.
    static let reportIntervalSeconds = 10

    private let listener: OpaquePointer
    private let logger: Logger
    private var resumeTimer: OpaquePointer?
    private var lastReport: Int?
    private var failuresSinceReport = 0
    /// Open connections, for the warning.
    private let openConnections: () -> Int

    /// - Parameter key: the listener callback's argument (evhttp's handle): the error callback
    ///   finds the back-off by it.
    init(listener: OpaquePointer, key: UnsafeMutableRawPointer, base: OpaquePointer, logger: Logger, openConnections: @escaping () -> Int) {
        self.listener = listener
        self.logger = logger
        self.openConnections = openConnections
        resumeTimer = event_new(base, -1, 0, { _, _, arg in
            guard let arg else { return }
            Unmanaged<AcceptBackoff>.fromOpaque(arg).takeUnretainedValue().resume()
        }, Unmanaged.passUnretained(self).toOpaque())
        Self.table.withLock { $0[UInt(bitPattern: key)] = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) }
        evconnlistener_set_error_cb(listener) { _, arg in
            guard let arg else { return }
            let error = errno
            // The listener's argument is evhttp's, not ours: look ourselves up by it.
            let found = AcceptBackoff.table.withLock { $0[UInt(bitPattern: arg)] }
            guard let found, let address = UnsafeMutableRawPointer(bitPattern: found) else { return }
            Unmanaged<AcceptBackoff>.fromOpaque(address).takeUnretainedValue().acceptFailed(errno: error)
        }
    }

    /// Back-offs by the address of their listener callback's argument. Touched when a listener
    /// is set up or let go, and when `accept` fails: never on a request's path.
    private static let table = Mutex<[UInt: UInt]>([:])

    /// Stops the timer and forgets the listener, before it is freed.
    func cancel(key: UnsafeMutableRawPointer) {
        _ = Self.table.withLock { $0.removeValue(forKey: UInt(bitPattern: key)) }
        if let resumeTimer {
            event_free(resumeTimer)
            self.resumeTimer = nil
        }
    }

    private func acceptFailed(errno error: Int32) {
        guard let resumeTimer else { return }
        evconnlistener_disable(listener)
        var pause = Self.pause
        event_add(resumeTimer, &pause)
        failuresSinceReport += 1
        let now = Clock.coarseSeconds()
        if let lastReport, now - lastReport < Self.reportIntervalSeconds { return }
        lastReport = now
        let reason = String(cString: strerror(error))
        let repeats = failuresSinceReport > 1 ? " (\(failuresSinceReport - 1) more since the last report)" : ""
        let advice = error == EMFILE || error == ENFILE ? " (raise the open-file limit: ulimit -n)" : ""
        logger.warning("cannot accept connections: \(reason) with \(openConnections()) open; trying again every 100 ms\(repeats)\(advice)")
        failuresSinceReport = 0
    }

    private func resume() {
        evconnlistener_enable(listener)
    }
}
