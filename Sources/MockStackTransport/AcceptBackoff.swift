import CLibevent
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a listener does when `accept` fails for want of descriptors or memory.
///
/// libevent's listener reads its socket level-triggered: with no error callback, a failed
/// `accept` (EMFILE at the open-file limit) is logged and the socket, still readable, is tried
/// again on the very next turn — a loop at 100 % CPU writing megabytes of warnings a second,
/// while the clients already connected wait behind it. Here the listener stops accepting for
/// ``pause`` and tries again; the connections waiting meanwhile stay in the kernel's backlog
/// and are accepted once descriptors are free. One warning line per ``reportIntervalSeconds``
/// says so.
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

    init(listener: OpaquePointer, base: OpaquePointer, logger: Logger) {
        self.listener = listener
        self.logger = logger
        resumeTimer = event_new(
            base, -1, 0,
            { _, _, arg in
                guard let arg else { return }
                AcceptBackoff.from(arg).resume()
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The backoff behind its timer's argument (the endpoint keeps it alive while the timer exists).
    private static func from(_ arg: UnsafeMutableRawPointer) -> AcceptBackoff {
        Unmanaged<AcceptBackoff>.fromOpaque(arg).takeUnretainedValue()
    }

    /// Stops the timer, before the listener is freed.
    func cancel() {
        guard let resumeTimer else { return }
        event_free(resumeTimer)
        self.resumeTimer = nil
    }

    /// The listener's error callback: `accept` failed with `error`.
    func acceptFailed(_ error: SystemCallError, openConnections: Int) {
        guard let resumeTimer else { return }
        var pause = Self.pause
        // Without the timer that resumes it, accepting must not stop at all.
        guard logger.succeeded(event_add(resumeTimer, &pause), "event_add", "accepting again at once") else { return }
        logger.succeeded(evconnlistener_disable(listener), "evconnlistener_disable")
        failuresSinceReport += 1
        let now = MonotonicClock.coarseSeconds()
        if let lastReport, now - lastReport < Self.reportIntervalSeconds { return }
        lastReport = now
        let reason = error.reason
        let repeats = failuresSinceReport > 1 ? " (\(failuresSinceReport - 1) more since the last report)" : ""
        let advice = error.code == EMFILE || error.code == ENFILE ? " (raise the open-file limit: ulimit -n)" : ""
        logger.warning(
            """
            cannot accept connections: \(reason) with \(openConnections) open; trying again every 100 \
            ms\(repeats)\(advice)
            """
        )
        failuresSinceReport = 0
    }

    /// Accepts again; if the listener cannot be turned back on, tries again after another pause.
    private func resume() {
        guard
            !logger.succeeded(
                evconnlistener_enable(listener), "evconnlistener_enable", level: .error, "trying again in 100 ms"),
            let resumeTimer
        else { return }
        var pause = Self.pause
        logger.succeeded(event_add(resumeTimer, &pause), "event_add", level: .critical, "the listener stays paused")
    }
}
