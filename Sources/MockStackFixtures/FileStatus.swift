#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` of a path says (symlinks followed unless asked not to). Fixture reads and the watcher use this
/// rather than FileManager's attributes, which also look up the names of the file's owner and
/// group: a read of /etc/passwd and /etc/group for every file. A plain `stat(2)`: a wrapper
/// library's path type cost a start-up more than the call itself (Benchmarks/LOG.md).
package struct FileStatus: Equatable, Sendable {
    package enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, other }

    package var kind: Kind
    var size: Int64
    /// The last modification: seconds since the epoch, and nanoseconds within the second (kept
    /// apart, so no file date can overflow a sum; they are only ever compared).
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The last change of the file or its inode (a write, a rename onto it, `chmod`, `utimes`),
    /// as the kernel's clock said: no user can set it (the load cache's ``FileSignature``).
    var changedSeconds: Int64
    var changedNanoseconds: Int64
    /// The file's identity: a file replaced by another is a change even when its size and time
    /// are the same.
    var device: UInt64
    var inode: UInt64

    /// `nil` when nothing is there (or a followed symlink leads nowhere).
    /// - Parameter followingSymlinks: false to describe a symlink itself (`lstat`), as
    ///   ``kind`` `.symbolicLink`.
    package init?(path: String, followingSymlinks: Bool = true) {
        var status = stat()
        // One of the façade's three C calls (`access` and `realpath`: DirectoryFixtureSource): a path and a
        // local struct, nothing kept, so marked as reviewed rather than moved to the transport.
        let result = unsafe followingSymlinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(status.st_size)
        #if canImport(Darwin)
        let time = status.st_mtimespec
        let changed = status.st_ctimespec
        #else
        let time = status.st_mtim
        let changed = status.st_ctim
        #endif
        modifiedSeconds = Int64(time.tv_sec)
        modifiedNanoseconds = Int64(time.tv_nsec)
        changedSeconds = Int64(changed.tv_sec)
        changedNanoseconds = Int64(changed.tv_nsec)
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
    }
}
