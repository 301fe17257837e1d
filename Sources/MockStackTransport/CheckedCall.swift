import Logging

/// The one way the transport checks a C call that reports failure in its return value —
/// libevent's `0` or `-1`, the socket API's `-1` with `errno` — so that no status is dropped:
/// each call site states what failing means there (the connection closes, the server carries
/// on with a warning), and the log names the call and the system's reason.
///
/// ```swift
/// guard worker.logger.succeeded(bufferevent_enable(bufferevent, Int16(EV_READ)),
/// "bufferevent_enable") else { return close() }
/// ```
extension Logger {
    /// Whether a C call succeeded (`status` 0); when it did not, logs `call` with `errno`'s
    /// reason at `level`. Read `errno` before anything else can change it: `status` is the
    /// call's own result, evaluated just before this runs.
    @discardableResult
    func succeeded(
        _ status: Int32, _ call: StaticString, level: Logger.Level = .warning,
        _ consequence: @autoclosure () -> String = ""
    ) -> Bool {
        guard status != 0 else { return true }
        return failed(call, .current, level: level, consequence())
    }

    /// Whether a system call (``SystemCalls``) succeeded; when it did not, logs `call` with the
    /// error's reason at `level`.
    @discardableResult
    func succeeded<Value>(
        _ result: Result<Value, SystemCallError>, _ call: StaticString, level: Logger.Level = .warning,
        _ consequence: @autoclosure () -> String = ""
    ) -> Bool {
        guard case .failure(let error) = result else { return true }
        return failed(call, error, level: level, consequence())
    }

    /// Logs a failed call with its reason and what follows from it; false.
    private func failed(
        _ call: StaticString, _ error: SystemCallError, level: Logger.Level, _ consequence: String
    ) -> Bool {
        log(level: level, "\(call) failed: \(error.reason)\(consequence.isEmpty ? "" : "; " + consequence)")
        return false
    }
}

extension TransportError {
    /// The error for a failed C call, with the system's reason: "setsockopt(SO_RCVTIMEO) failed:
    /// Bad file descriptor". `error` is `errno` now unless given.
    static func failed(_ call: StaticString, _ error: SystemCallError = .current) -> TransportError {
        TransportError("\(call) failed: \(error.reason)", call: "\(call)", errno: error.code)
    }
}
