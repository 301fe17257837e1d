public import MockStackCore
import Synchronization

/// ServiceStack's `[CacheResponse(Duration = …)]`: successful GET answers kept per request
/// target for `duration`, then served as they were (TechStacks caches its AutoQuery and
/// overview services for an hour, so their `created` stands still meanwhile).
///
/// Bounded: at most ``entryLimit`` answers and ``byteLimit`` bytes (bodies, headers and keys
/// counted), the oldest dropped first; bodies above ``largestBody`` are not kept. Every answer
/// here is JSON, so the negotiated content type, which the real cache also keys on, is the same
/// for every request: the target is the key, with the request's origin for answers that hold
/// absolute URLs.
public final class ResponseCache: Sendable {
    /// What an answer is kept under.
    public struct Key: Hashable, Sendable {
        /// The request target, as sent.
        public var target: String
        /// Where the client reached the app, for an answer holding URLs made from it; else nil.
        public var origin: RequestOrigin?

        public init(target: String, origin: RequestOrigin? = nil) {
            self.target = target
            self.origin = origin
        }

        /// The target, the `Host` and the mount (a session's copy of the app is reached under
        /// its own): the forwarded headers are left to equality, which tells the rare keys that
        /// differ only there apart; hashing them too would cost every lookup for that rare case.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(target)
            hasher.combine(origin?.host)
            hasher.combine(origin?.mount)
        }

        /// The bytes it holds, for the cache's byte limit.
        var byteCount: Int {
            guard let origin else { return target.utf8.count }
            return target.utf8.count + origin.mount.utf8.count + (origin.host?.utf8.count ?? 0)
                + (origin.forwardedHost?.utf8.count ?? 0)
                + (origin.forwardedProto?.utf8.count ?? 0)
        }
    }

    /// How long an answer is served from the cache.
    public let duration: Int64
    public let byteLimit: Int
    public let entryLimit: Int
    public let largestBody: Int

    private struct Entry {
        var response: HTTPResponse
        var expires: Int64
        var bytes: Int
        /// When it was stored, to tell it from an older entry under the same key.
        var sequence: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were stored, with when: `order[head...]`, oldest first; an
        /// item whose entry was since replaced or dropped is skipped.
        var order: [(key: Key, sequence: Int)] = []
        var head = 0
        var bytes = 0
        var sequence = 0

        mutating func remove(_ key: Key) {
            if let entry = entries.removeValue(forKey: key) { bytes -= entry.bytes }
        }

        /// Drops the oldest entries until both limits hold, compacting the order now and then.
        mutating func trim(byteLimit: Int, entryLimit: Int) {
            while bytes > byteLimit || entries.count > entryLimit, head < order.count {
                let oldest = order[head]
                if entries[oldest.key]?.sequence == oldest.sequence { remove(oldest.key) }
                head += 1
            }
            // Skipped and stale items are dropped once they outnumber the live ones.
            if order.count - head > 2 * entries.count + 64 || (head > 64 && head * 2 > order.count) {
                order = order[head...].filter { entries[$0.key]?.sequence == $0.sequence }
                head = 0
            }
        }
    }

    private let state = Mutex(State())

    /// - Parameter seconds: the `Duration` of the real attribute.
    public init(seconds: Int, byteLimit: Int = 8 << 20, entryLimit: Int = 1024, largestBody: Int = 1 << 20) {
        duration = Int64(seconds) * CivilTime.ticksPerSecond
        self.byteLimit = byteLimit
        self.entryLimit = entryLimit
        self.largestBody = largestBody
    }

    /// The key a request is cached under, or nil when it is not cacheable (only GETs are).
    /// - Parameter origin: the request's origin, when the answer holds URLs made from it.
    public static func key(for request: HTTPRequest, verb: String, origin: RequestOrigin? = nil) -> Key? {
        guard verb == "GET", request.method == .get else { return nil }
        return Key(target: request.target, origin: origin)
    }

    /// The cached answer for `key`, if it has not expired at `now` (an expired one is dropped).
    public func response(for key: Key, now: DateTimeValue) -> HTTPResponse? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.expires > now.ticks else {
                state.remove(key)
                return nil
            }
            return entry.response
        }
    }

    /// Keeps a successful answer; returns it as kept (with its head rendered), or as given
    /// when it is not kept.
    @discardableResult
    public func store(_ response: HTTPResponse, for key: Key, now: DateTimeValue) -> HTTPResponse {
        guard response.status == 200, response.body.count <= largestBody else { return response }
        // What the entry holds: body, header text and key, plus a little for the bookkeeping.
        let bytes =
            response.body.count + key.byteCount * 2 + 64
            + response.headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        // Served again and again: its head is rendered once, here.
        let prepared = response.preparingHead()
        state.withLock { state in
            state.remove(key)
            state.sequence += 1
            state.entries[key] = Entry(
                response: prepared, expires: now.ticks + duration, bytes: bytes, sequence: state.sequence)
            state.order.append((key, state.sequence))
            state.bytes += bytes
            state.trim(byteLimit: byteLimit, entryLimit: entryLimit)
        }
        return prepared
    }

    /// Forgets every answer.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
