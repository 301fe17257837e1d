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
}
