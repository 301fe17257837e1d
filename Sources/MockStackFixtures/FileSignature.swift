#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the load cache keeps of a file's or folder's `stat` (docs/load-cache.md), as git's index
/// does: equal at the next start, the file is taken to hold what it held, unread. The device and
/// inode (another file put in its place), the size, and the modification and change times to
/// the nanosecond. The change time (ctime) is the guard: no user can set it, and every write,
/// rename onto the name, `chmod` or `utimes` moves it, so a file edited and its modification
/// time set back still differs. A folder's times move when an entry is added or removed.
struct FileSignature: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Nanoseconds since the epoch.
    var modified: Int64
    var changed: Int64

    /// How close to a record's making a file's times may be before its signature is not
    /// trusted (it is then read and its digest compared at every start: git's "racy" files).
    /// A file written in the same clock tick as it was read, before or after, can keep
    /// equal times with other bytes: file systems keep times at coarse steps (FAT: 2 s; ext3,
    /// HFS+: 1 s; ext4 and others: the kernel's tick, a few milliseconds behind the wall clock
    /// this compares with). Two seconds covers all of them.
    static let racyMargin: Int64 = 2_000_000_000

    /// The signature of what is at `path` (symlinks followed); nil when nothing is there.
    static func of(_ path: String) -> FileSignature? { FileStatus(path: path).map(FileSignature.init) }

    /// Whether the file was modified or changed too close to `moment` (nanoseconds since the
    /// epoch, a record's making) for its signature to be trusted.
    func isRacy(madeAt moment: Int64) -> Bool { max(modified, changed) >= moment &- Self.racyMargin }

    /// The wall clock now, in nanoseconds since the epoch.
    static func now() -> Int64 {
        let seconds = Date().timeIntervalSince1970
        return Int64((seconds * 1e9).rounded(.down))
    }

    /// Clamped, not wrapped, for dates past what 64-bit nanoseconds hold (year 2262).
    private static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(nanoseconds)
        return overflowed ? .max : sum
    }
}

extension FileSignature {
    /// A `stat`'s signature (declared here so that the memberwise initializer stays).
    init(_ status: FileStatus) {
        self.init(
            device: status.device, inode: status.inode, size: status.size,
            modified: Self.nanoseconds(status.modifiedSeconds, status.modifiedNanoseconds),
            changed: Self.nanoseconds(status.changedSeconds, status.changedNanoseconds))
    }
}
