import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The idle deadline between requests, kept by one timer per loop rather than a read timeout on
/// every connection.
///
/// libevent re-arms a persistent event that has a timeout every time it fires, so a read
/// timeout on each bufferevent cost an `event_add` (~250 instructions) on every request. Here
/// the timer looks at the connections four times per timeout instead: one that has stayed idle
/// (``HTTPConnection/isIdle``) through more than four of those looks has been idle for at least
/// the timeout, and closes; a connection reading or answering starts its count over. So an idle
/// connection closes between the timeout and a quarter more.
extension Worker {
    static let idleChecksPerTimeout = 4

    /// Starts the timer when the configuration has a timeout; false when libevent refused it.
    func startIdleSweep() -> Bool {
        let milliseconds = configuration.timeoutSeconds * 1000 / Self.idleChecksPerTimeout
        guard milliseconds > 0 else { return true }
        guard let timer = event_new(base, -1, Int16(EV_PERSIST), { _, _, arg in
            guard let arg else { return }
            Worker.from(arg).sweepIdleConnections()
        }, Unmanaged.passUnretained(self).toOpaque()) else { return false }
        var interval = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        guard logger.succeeded(event_add(timer, &interval), "event_add") else {
            event_free(timer)
            return false
        }
        idleTimer = timer
        return true
    }

    private func sweepIdleConnections() {
        var expired: [HTTPConnection] = []
        for connection in connections.values {
            guard connection.isIdle else {
                connection.idleChecks = 0
                continue
            }
            connection.idleChecks += 1
            if connection.idleChecks > Self.idleChecksPerTimeout { expired.append(connection) }
        }
        for connection in expired { connection.close() }
    }
}
