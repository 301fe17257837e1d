#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files of an app folder that the fixture source could read, found the way the source
/// finds them: hidden names left out, and a symlink followed only when it leads somewhere
/// inside the fixtures folder (``DirectoryFixtureSource`` refuses the others, so a change
/// behind one cannot matter). `--watch` fingerprints these a few times a second, so the walk
/// never leaves the folder: a link to `/usr/share` costs one `lstat`, not 47,000 files.
struct FixtureTree {
    /// The fixtures folder with its own symlinks resolved: what "inside" means.
    let realRoot: String
    /// Entries (files, folders, links and the rest) looked at most, whatever the tree holds;
    /// past it the rest of the walk is skipped.
    let fileLimit: Int

    /// How many entries an app folder's walk looks at, unless told otherwise.
    static let defaultFileLimit = 20_000

    init(root: URL, fileLimit: Int = defaultFileLimit) {
        realRoot = root.resolvingSymlinksInPath().path
        self.fileLimit = fileLimit
    }

    /// One regular file found: the path it was reached by, and its status.
    struct File: Equatable, Sendable {
        var path: String
        var status: FileStatus
    }

    /// The regular files below `folder` (a path inside the root), sorted by path; whether the
    /// walk stopped at ``fileLimit``.
    func files(below folder: String) -> (files: [File], truncated: Bool) {
        var files: [File] = []
        // Directories already walked, by identity: two links to one folder (or a link to an
        // ancestor) are walked once.
        var walked: Set<DirectoryIdentity> = []
        var pending: [String] = []
        if let start = contained(folder), let status = FileStatus(path: start), status.kind == .directory {
            walked.insert(DirectoryIdentity(status))
            pending.append(folder)
        }
        var examined = 0
        while let directory = pending.popLast() {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") {
                examined += 1
                guard examined <= fileLimit else { return (files.sorted { $0.path < $1.path }, true) }
                let path = directory + "/" + name
                guard let entry = FileStatus(path: path, followingSymlinks: false) else { continue }
                var status = entry
                if entry.kind == .symbolicLink {
                    guard let target = contained(path), let followed = FileStatus(path: target) else { continue }
                    status = followed
                }
                switch status.kind {
                case .regular:
                    files.append(File(path: path, status: status))
                case .directory:
                    if walked.insert(DirectoryIdentity(status)).inserted { pending.append(path) }
                case .symbolicLink, .other:
                    continue
                }
            }
        }
        return (files.sorted { $0.path < $1.path }, false)
    }

    /// The real path of `path` when it lies inside the root (the root itself included).
    func contained(_ path: String) -> String? {
        DirectoryFixtureSource.realPath(of: path, inside: realRoot)
    }

    private struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ status: FileStatus) {
            device = status.device
            inode = status.inode
        }
    }
}
