#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Both ends of a new pipe, close-on-exec: a child gets an end only by
/// `posix_spawn`'s `dup2` onto 0, 1 or 2 (which clears the flag on the copy).
struct PipeEnds {
    var read: Int32
    var write: Int32

    static func make(for executable: String) throws(SpawnError) -> PipeEnds {
        var ends: [Int32] = [-1, -1]
        // Not atomic (Glibc's module has no pipe2), but a child another thread spawns in the
        // moment between gets nothing: this type's spawns close every descriptor above 2 in
        // the child (addclosefrom_np on Linux, POSIX_SPAWN_CLOEXEC_DEFAULT on Darwin), and so
        // does Foundation's Process.
        guard pipe(&ends) == 0 else { throw SpawnError(executable: executable, code: errno) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return PipeEnds(read: ends[0], write: ends[1])
    }

    func closeRead() { _ = systemClose(read) }
    func closeWrite() { _ = systemClose(write) }
}
