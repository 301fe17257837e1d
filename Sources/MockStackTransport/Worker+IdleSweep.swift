import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The idle and send deadlines, kept by one timer per loop rather than timeouts on every
/// connection.
///
/// libevent re-arms a persistent event that has a timeout every time it fires, so a read
/// timeout on each bufferevent cost an `event_add` on every request, and a send deadline per
/// answer another. Here the timer looks at the connections ``ConnectionWatch/looksPerTimeout``
/// times per timeout, and each connection's ``ConnectionWatch`` decides: one idle through the
/// timeout closes, one whose output the client has not taken for the timeout is reset.
extension Worker {
    /// Starts the timer when the configuration has a timeout; false when libevent refused it.
    func startIdleSweep() -> Bool {
        let milliseconds = configuration.timeoutSeconds * 1000 / ConnectionWatch.looksPerTimeout
        guard milliseconds > 0 else { return true }
        guard
            let timer = event_new(
                base, -1, Int16(EV_PERSIST),
                { _, _, arg in
                    guard let arg else { return }
                    Worker.from(arg).sweepConnections()
                }, Unmanaged.passUnretained(self).toOpaque())
        else { return false }
        var interval = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        guard logger.succeeded(event_add(timer, &interval), "event_add") else {
            event_free(timer)
            return false
        }
        idleTimer = timer
        return true
    }

    private func sweepConnections() {
        var idle: [HTTPConnection] = []
        var stalled: [HTTPConnection] = []
        for connection in connections.values {
            switch connection.state.watch.look(connection.activity) {
            case .keep: break
            case .idledOut: idle.append(connection)
            case .stalled: stalled.append(connection)
            }
        }
        for connection in idle { connection.close() }
        for connection in stalled { connection.outputStalled() }
    }
}
