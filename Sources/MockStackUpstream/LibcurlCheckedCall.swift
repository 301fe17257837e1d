import CCurl
import Logging

/// libcurl's results checked the way the transport checks its C calls (its CheckedCall.swift):
/// the call is named, and the log gives libcurl's reason where `errno`'s would be.
extension Logger {
    /// Whether a libcurl call succeeded (`CURLE_OK`); when it did not, logs `call` with
    /// libcurl's reason at `level`.
    @discardableResult
    func succeeded(
        _ code: CURLcode, _ call: StaticString, _ libcurl: Libcurl, level: Logger.Level = .warning,
        _ consequence: @autoclosure () -> String = ""
    ) -> Bool {
        code == CURLE_OK || failed(call, libcurl.describe(code), level: level, consequence())
    }

    /// Whether a multi-handle call succeeded (`CURLM_OK`); when it did not, logs `call` with
    /// libcurl's reason at `level`.
    @discardableResult
    func succeeded(
        _ code: CURLMcode, _ call: StaticString, _ libcurl: Libcurl, level: Logger.Level = .warning,
        _ consequence: @autoclosure () -> String = ""
    ) -> Bool {
        code == CURLM_OK || failed(call, libcurl.describe(code), level: level, consequence())
    }

    /// Logs a failed call with its reason and what follows from it; false.
    private func failed(_ call: StaticString, _ reason: String, level: Logger.Level, _ consequence: String) -> Bool {
        log(level: level, "\(call) failed: \(reason)\(consequence.isEmpty ? "" : "; " + consequence)")
        return false
    }
}
