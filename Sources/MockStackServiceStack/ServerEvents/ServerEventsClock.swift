#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two times Server Events reads: a monotonic one for heartbeats and expiry, and the wall
/// clock for `createdAt`. Tests give their own.
struct ServerEventsClock: Sendable {
    /// Milliseconds on a clock that never goes back.
    var monotonicMilliseconds: @Sendable () -> Int
    /// Milliseconds since 1970.
    var wallMilliseconds: @Sendable () -> Int64

    static let system = ServerEventsClock(
        monotonicMilliseconds: {
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
        },
        wallMilliseconds: { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) })

    private static let start = ContinuousClock.now
}
