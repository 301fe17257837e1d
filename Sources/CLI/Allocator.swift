#if canImport(CMimalloc)
import CMimalloc
#endif

/// The allocator serving this process, for the start-up log. On Linux the executable links
/// mimalloc, which then answers every malloc (libevent's, the Swift runtime's) in place of glibc.
enum Allocator {
    static var description: String {
        #if canImport(CMimalloc)
        let version = Int(mi_version())  // 209 for 2.0.9
        return "mimalloc \(version / 100).\(version / 10 % 10).\(version % 10)"
        #else
        return "the system malloc"
        #endif
    }

    /// Runs the fixture load with freed pages handed back to the system at once rather than
    /// after mimalloc's usual delay, then collects what is left over: the parsed documents a
    /// load throws away would otherwise stay resident while the server idles. The delay is
    /// restored for serving, where it saves system calls.
    static func loading<Result>(_ load: () throws -> Result) rethrows -> Result {
        #if canImport(CMimalloc)
        let delay = mi_option_get(mi_option_decommit_delay)
        mi_option_set(mi_option_decommit_delay, 0)
        defer {
            mi_collect(true)
            mi_option_set(mi_option_decommit_delay, delay)
        }
        #endif
        return try load()
    }
}
