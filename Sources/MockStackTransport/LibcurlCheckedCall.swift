import CCurl
import Logging

/// libcurl's results through the transport's checked-call helper (CheckedCall.swift): the call
/// is named, and the log gives libcurl's reason where `errno`'s would be.
extension Logger {
    /// Whether a libcurl call succeeded (`CURLE_OK`); when it did not, logs `call` with
    /// libcurl's reason at `level`.
    @discardableResult
    func succeeded(_ code: CURLcode, _ call: StaticString, _ libcurl: Libcurl, level: Logger.Level = .warning,
                   _ consequence: @autoclosure () -> String = "") -> Bool {
        guard code != CURLE_OK else { return true }
        let then = consequence()
        log(level: level, "\(call) failed: \(libcurl.describe(code))\(then.isEmpty ? "" : "; " + then)")
        return false
    }

    /// Whether a multi-handle call succeeded (`CURLM_OK`); when it did not, logs `call` with
    /// libcurl's reason at `level`.
    @discardableResult
    func succeeded(_ code: CURLMcode, _ call: StaticString, _ libcurl: Libcurl, level: Logger.Level = .warning,
                   _ consequence: @autoclosure () -> String = "") -> Bool {
        guard code != CURLM_OK else { return true }
        let then = consequence()
        log(level: level, "\(call) failed: \(libcurl.describe(code))\(then.isEmpty ? "" : "; " + then)")
        return false
    }
}
