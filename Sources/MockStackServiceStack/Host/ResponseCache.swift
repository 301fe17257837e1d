public import MockStackCore
import Synchronization

/// ServiceStack's `[CacheResponse(Duration = …)]`: successful GET answers kept per request
/// target and `Accept` header for `duration`, then served as they were (TechStacks caches its
/// AutoQuery and overview services for an hour, so their `created` stands still meanwhile).
///
/// Bounded: entries are dropped oldest first once the cached bodies pass ``byteLimit``, and
/// bodies above ``largestBody`` are not kept.
public final class ResponseCache: Sendable {
    /// How long an answer is served from the cache.
    public let duration: Int64
    public let byteLimit: Int
    public let largestBody: Int

    private struct Entry {
        var response: HTTPResponse
        var expires: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys in the order they were stored, for eviction.
        var order: [String] = []
        var bytes = 0
    }

    private let state = Mutex(State())

    /// - Parameter seconds: the `Duration` of the real attribute.
    public init(seconds: Int, byteLimit: Int = 8 << 20, largestBody: Int = 1 << 20) {
        duration = Int64(seconds) * CivilTime.ticksPerSecond
        self.byteLimit = byteLimit
        self.largestBody = largestBody
    }

    /// The key a request is cached under, or nil when it is not cacheable (only GETs are).
    public static func key(for request: HTTPRequest, verb: String) -> String? {
        guard verb == "GET", request.method == .get else { return nil }
        return request.target + "\n" + (request.headers["Accept"] ?? "")
    }

    /// The cached answer for `key`, if it has not expired at `now`.
    public func response(for key: String, now: DateTimeValue) -> HTTPResponse? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.expires > now.ticks else { return nil }
            return entry.response
        }
    }

    /// Keeps a successful answer.
    public func store(_ response: HTTPResponse, for key: String, now: DateTimeValue) {
        guard response.status == 200, response.body.count <= largestBody else { return }
        state.withLock { state in
            if let old = state.entries[key] {
                state.bytes -= old.response.body.count
                state.order.removeAll { $0 == key }
            }
            state.entries[key] = Entry(response: response, expires: now.ticks + duration)
            state.order.append(key)
            state.bytes += response.body.count
            while state.bytes > byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let dropped = state.entries.removeValue(forKey: oldest) { state.bytes -= dropped.response.body.count }
            }
        }
    }

    /// Forgets every answer.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
