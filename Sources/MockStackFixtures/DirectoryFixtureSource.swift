public import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixtures tree on disk. Reads never leave it: a name with `..`, an absolute path or a
/// symlink that leads outside the root is refused, and only regular files are read (a FIFO
/// or a device would block the reader).
public struct DirectoryFixtureSource: FixtureSource {
    public let root: URL
    public let displayRoot: String

    /// - Parameters:
    ///   - root: the fixtures folder.
    ///   - displayRoot: how diagnostics name it; defaults to the path as given.
    ///   - remembersFolders: whether each folder's real path is resolved once and remembered,
    ///     so that a file that is no symlink itself costs one `lstat` rather than a `realpath`
    ///     (a `readlink` per path segment). Only for a source that lives as long as one load: a
    ///     folder swapped for a symlink afterwards would not be seen.
    public init(root: URL, displayRoot: String? = nil, remembersFolders: Bool = false) {
        self.root = root
        self.displayRoot = displayRoot ?? root.path
        rootPath = root.path
        realRoot = Self.resolvingSymlinks(rootPath)
        folderRealPaths = remembersFolders ? RealPaths() : nil
    }

    /// `root.path`, kept: each file's path is joined to it as text, which costs a fraction
    /// of `URL.appendingPathComponent` (Benchmarks/LOG.md, start-up).
    let rootPath: String
    /// The root with its symlinks resolved, once (nil when it was not there): every read checks
    /// that its file lies inside it.
    private let realRoot: String?
    private let folderRealPaths: RealPaths?

    private func path(of name: String) -> String { rootPath + "/" + name }

    /// Where on disk a source whose root's path is `rootPath` reads the file at `path` (not
    /// resolved further: symlinks are followed by whoever uses it), so the load cache can `stat`
    /// it; nil for a path the source refuses.
    static func filePath(_ path: String, inRoot rootPath: String) -> String? {
        FixturePath.problem(in: path) == nil ? rootPath + "/" + path : nil
    }

    public func appFolders() throws -> [String] {
        if let problem = Self.folderProblem(root) { throw FixtureReadError(path: displayRoot, reason: problem) }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
            throw FixtureReadError(path: displayRoot, reason: "cannot be listed")
        }
        return entries.filter { entry in
            !entry.hasPrefix(".") && FileStatus(path: root.appendingPathComponent(entry).path)?.kind == .directory
        }.sorted()
    }

    public func fileExists(_ path: String) -> Bool {
        guard FixturePath.problem(in: path) == nil, let status = FileStatus(path: self.path(of: path)) else {
            return false
        }
        // Anything but a folder: reading a FIFO or a device is then refused, by name.
        return status.kind != .directory
    }

    public func read(_ path: String) throws -> [UInt8] {
        let file = try contained(path)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FixtureReadError(path: displayRoot + "/" + path, reason: "cannot be read")
        }
        return [UInt8](data)
    }

    /// What stops `folder` from being read as a fixtures folder, in a few words ("no such
    /// folder", "is a file, not a folder"), or nil when it can be listed.
    public static func folderProblem(_ folder: URL) -> String? {
        guard let status = FileStatus(path: folder.path) else { return "no such folder" }
        guard status.kind == .directory else { return "is a file, not a folder" }
        guard unsafe access(folder.path, R_OK | X_OK) == 0 else { return "cannot be listed (permission denied)" }
        return nil
    }

    /// The real path of `path`, once it is known to be a regular file inside the root.
    private func contained(_ path: String) throws -> String {
        let shown = displayRoot + "/" + path
        if let problem = FixturePath.problem(in: path) { throw FixtureReadError(path: shown, reason: problem) }
        if let folderRealPaths, let real = Self.plainFile(self.path(of: path), folders: folderRealPaths) {
            guard let realRoot, Self.isInside(real, realRoot: realRoot) else {
                throw FixtureReadError(path: shown, reason: "leads outside the fixtures folder (through a symlink)")
            }
            return real
        }
        // Nothing there (or a symlink leading nowhere): not a regular file either.
        guard let resolved = Self.resolvingSymlinks(self.path(of: path)),
            let realRoot = realRoot ?? Self.resolvingSymlinks(rootPath)
        else {
            throw FixtureReadError(path: shown, reason: "is not a regular file")
        }
        guard Self.isInside(resolved, realRoot: realRoot) else {
            throw FixtureReadError(path: shown, reason: "leads outside the fixtures folder (through a symlink)")
        }
        guard FileStatus(path: resolved)?.kind == .regular else {
            throw FixtureReadError(path: shown, reason: "is not a regular file")
        }
        return resolved
    }

    /// `path` with its symlinks resolved, when that lies inside `realRoot` (the fixtures folder,
    /// its own symlinks resolved; the root itself counts as inside), else nil.
    static func realPath(of path: String, inside realRoot: String) -> String? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return isInside(real, realRoot: realRoot) ? real : nil
    }

    private static func isInside(_ real: String, realRoot: String) -> Bool {
        real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// The real path of `path` when it is a regular file and no symlink itself: its folder's
    /// real path (remembered) and its name. nil for anything else, left to `realpath`.
    private static func plainFile(_ path: String, folders: RealPaths) -> String? {
        guard FileStatus(path: path, followingSymlinks: false)?.kind == .regular,
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let folder = String(Substring(path.utf8[..<slash]))
        guard let realFolder = folders.realPath(of: folder) else { return nil }
        return realFolder + String(Substring(path.utf8[slash...]))
    }

    /// Folders' real paths, each resolved once.
    private final class RealPaths: Sendable {
        private let known = Mutex<[String: String?]>([:])

        func realPath(of folder: String) -> String? {
            if let found = known.withLock({ $0[folder] }) { return found }
            let real = DirectoryFixtureSource.resolvingSymlinks(folder)
            known.withLock { $0[folder] = .some(real) }
            return real
        }
    }

    /// `realpath(3)`: the absolute path with every symlink resolved, or nil when nothing is
    /// there. Foundation's `resolvingSymlinksInPath` does the same far more slowly, and a start
    /// asks for every file.
    static func resolvingSymlinks(_ path: String) -> String? {
        // A C string the call allocates, read into a String and freed here: marked as reviewed.
        guard let resolved = unsafe realpath(path, nil) else { return nil }
        defer { unsafe free(resolved) }
        return unsafe String(cString: resolved)
    }
}
