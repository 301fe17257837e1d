/// The two times Server Events reads: a monotonic one for heartbeats and expiry, and the app's
/// wall clock for `createdAt` (so `--fixed-date` and pinned test clocks reach it). Tests give
/// their own.
struct ServerEventsClock: Sendable {
    /// Milliseconds on a clock that never goes back.
    var monotonicMilliseconds: @Sendable () -> Int
    /// Milliseconds since 1970.
    var wallMilliseconds: @Sendable () -> Int64

    /// The app's wall clock and the process's monotonic one.
    init(
        wallMilliseconds: @escaping @Sendable () -> Int64,
        monotonicMilliseconds: @escaping @Sendable () -> Int = ServerEventsClock.continuousMilliseconds
    ) {
        self.monotonicMilliseconds = monotonicMilliseconds
        self.wallMilliseconds = wallMilliseconds
    }

    /// Milliseconds of `ContinuousClock` since the process first asked.
    static let continuousMilliseconds: @Sendable () -> Int = {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    private static let start = ContinuousClock.now
}
