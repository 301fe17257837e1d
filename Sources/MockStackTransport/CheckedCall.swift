#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// The one way the transport checks a C call that reports failure in its return value —
/// libevent's `0` or `-1`, the socket API's `-1` with `errno` — so that no status is dropped:
/// each call site states what failing means there (the connection closes, the server carries
/// on with a warning), and the log names the call and the system's reason.
///
/// ```swift
/// guard worker.logger.succeeded(bufferevent_enable(bufferevent, Int16(EV_READ)), "bufferevent_enable") else { return close() }
/// ```
extension Logger {
    /// Whether a C call succeeded (`status` 0); when it did not, logs `call` with `errno`'s
    /// reason at `level`. Read `errno` before anything else can change it: `status` is the
    /// call's own result, evaluated just before this runs.
    @discardableResult
    func succeeded(_ status: Int32, _ call: StaticString, level: Logger.Level = .warning,
                   _ consequence: @autoclosure () -> String = "") -> Bool {
        guard status != 0 else { return true }
        let reason = String(cString: strerror(errno))
        let then = consequence()
        log(level: level, "\(call) failed: \(reason)\(then.isEmpty ? "" : "; " + then)")
        return false
    }
}

extension TransportError {
    /// The error for a failed C call, with `errno`'s reason: "setsockopt(SO_RCVTIMEO) failed:
    /// Bad file descriptor".
    static func failed(_ call: StaticString) -> TransportError {
        #if canImport(Glibc)
        let code = Glibc.errno
        #else
        let code = Darwin.errno
        #endif
        return TransportError("\(call) failed: \(String(cString: strerror(code)))", call: "\(call)", errno: code)
    }
}
