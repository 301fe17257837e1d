#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// What one `stat` of a path says (symlinks followed unless asked not to). Fixture reads and the watcher use this
/// rather than FileManager's attributes, which also look up the names of the file's owner and
/// group: a read of /etc/passwd and /etc/group for every file.
struct FileStatus: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, other }

    var kind: Kind
    var size: Int64
    /// The last modification: seconds since the epoch, and nanoseconds within the second (kept
    /// apart, so no file date can overflow a sum; they are only ever compared).
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The file's identity: a file replaced by another is a change even when its size and time
    /// are the same.
    var device: DeviceID
    var inode: Inode

    /// `nil` when nothing is there (or a followed symlink leads nowhere).
    /// - Parameter followingSymlinks: false to describe a symlink itself (`lstat`), as
    ///   ``kind`` `.symbolicLink`.
    init?(path: String, followingSymlinks: Bool = true) {
        guard let status = try? FilePath(path).stat(followTargetSymlink: followingSymlinks) else { return nil }
        switch status.type {
        case .regular: kind = .regular
        case .directory: kind = .directory
        case .symbolicLink: kind = .symbolicLink
        default: kind = .other
        }
        size = status.size
        let time = status.st_mtim
        modifiedSeconds = Int64(time.tv_sec)
        modifiedNanoseconds = Int64(time.tv_nsec)
        device = status.deviceID
        inode = status.inode
    }
}
