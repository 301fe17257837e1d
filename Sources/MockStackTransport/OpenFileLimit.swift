#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, which bounds how many connections it can hold.
///
/// Many systems start processes with a soft limit of 1,024 and a much higher hard limit; a
/// server holding a test suite's (or a load test's) connections wants the higher one. Only
/// the command-line server raises it: an in-process server leaves its host's limits alone.
public enum OpenFileLimit {
    /// Raises the soft limit towards the hard one, at most to `ceiling`, and returns the soft
    /// limit in force afterwards.
    /// - Parameter ceiling: where to stop when the hard limit is higher or unlimited; Linux
    ///   refuses more than `fs.nr_open` (1,048,576 by default), macOS more than `OPEN_MAX`.
    @discardableResult
    public static func raise(ceiling: UInt64 = defaultCeiling) -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Self.resource, &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }

    #if os(Linux)
    public static let defaultCeiling: UInt64 = 1 << 20
    #else
    public static let defaultCeiling: UInt64 = 10_240
    #endif

    #if os(Linux)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
