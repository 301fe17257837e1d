#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's monotonic clock read directly, for the transport's deadlines: `ContinuousClock.now`
/// goes through the concurrency runtime on every read. (Named so as not to shadow the standard
/// library's `Clock`.)
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Whole seconds, read as cheaply as the system allows (the coarse clock on Linux: no
    /// system call, a few milliseconds of resolution).
    static func coarseSeconds() -> Int {
        var spec = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        #else
        clock_gettime(CLOCK_MONOTONIC, &spec)
        #endif
        return Int(spec.tv_sec)
    }
}
