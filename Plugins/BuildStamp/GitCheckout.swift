import Foundation

/// The git checkout a package folder is, read from git's own files (git need not be installed):
/// which files name the commit HEAD points at, and that commit. Understands worktrees and
/// submodules (a `.git` file naming the real folder) and packed branches.
struct GitCheckout {
    /// The folder holding HEAD (`.git`, or a worktree's own folder).
    let gitDirectory: URL
    /// The folder holding refs and packed-refs (the same, except in a worktree).
    let commonDirectory: URL

    /// `nil` when `package` is not a git checkout (a Docker build's context, a source archive).
    init?(package: URL) {
        let dotGit = package.appendingPathComponent(".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue {
            gitDirectory = dotGit
        } else {
            guard let link = Self.read(dotGit), link.hasPrefix("gitdir: ") else { return nil }
            gitDirectory = Self.resolve(String(link.dropFirst(8)), in: package)
        }
        if let common = Self.read(gitDirectory.appendingPathComponent("commondir")) {
            commonDirectory = Self.resolve(common, in: gitDirectory)
        } else {
            commonDirectory = gitDirectory
        }
    }

    /// HEAD's text: `ref: refs/heads/main`, or a commit when detached.
    var head: String? { Self.read(gitDirectory.appendingPathComponent("HEAD")) }

    /// Every file whose change can mean a different commit at HEAD.
    var headFiles: [URL] {
        var files = [gitDirectory.appendingPathComponent("HEAD"), commonDirectory.appendingPathComponent("packed-refs")]
        if let head, head.hasPrefix("ref: ") {
            files.append(commonDirectory.appendingPathComponent(String(head.dropFirst(5))))
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The commit HEAD names, full length.
    var commit: String? {
        guard let head else { return nil }
        guard head.hasPrefix("ref: ") else { return head }
        let reference = String(head.dropFirst(5))
        if let loose = Self.read(commonDirectory.appendingPathComponent(reference)) { return loose }
        let packed = Self.read(commonDirectory.appendingPathComponent("packed-refs")) ?? ""
        let line = packed.split(separator: "\n").first { $0.hasSuffix(" " + reference) }
        return line.map { String($0.prefix { $0 != " " }) }
    }

    /// A path git wrote, absolute or relative to `folder`.
    static func resolve(_ path: String, in folder: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path).standardizedFileURL
    }

    static func read(_ url: URL) -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
