#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's monotonic clock read directly: for durations and deadlines on the request path,
/// where `ContinuousClock.now` costs ~150 instructions and Dispatch's clock ~50 a read.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Whole seconds, read as cheaply as the system allows (the coarse clock on Linux: no
    /// system call, a few milliseconds of resolution).
    public static func coarseSeconds() -> Int {
        var spec = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        #else
        clock_gettime(CLOCK_MONOTONIC, &spec)
        #endif
        return Int(spec.tv_sec)
    }
}
