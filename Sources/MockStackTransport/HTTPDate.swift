#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IMF-fixdate form of a time (`Sun, 06 Nov 1994 08:49:37 GMT`), as the `Date` header carries it.
enum HTTPDate {
    static func now() -> String { format(time(nil)) }

    static func format(_ instant: time_t) -> String {
        var seconds = instant
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let count = strftime(buffer.baseAddress!, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }
}

/// The current `Date` header, formatted at most once a second. One per loop: formatting it for
/// every reply with `snprintf` is a visible share of a fixture GET's cost.
struct HTTPDateCache {
    private var second: time_t = -1
    private(set) var value = ""
    /// `Date: <value>\r\n`, ready to write.
    private(set) var line: [UInt8] = []

    /// Brings the value and line up to the current second.
    mutating func refresh() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        value = HTTPDate.format(now)
        line = Array("Date: \(value)\r\n".utf8)
    }
}
