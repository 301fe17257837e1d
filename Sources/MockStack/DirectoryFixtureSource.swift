#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import MockStackCore

/// A fixtures tree on disk.
public struct DirectoryFixtureSource: FixtureSource {
    public let root: URL
    public let displayRoot: String

    /// - Parameters:
    ///   - root: the fixtures folder.
    ///   - displayRoot: how diagnostics name it; defaults to the path as given.
    public init(root: URL, displayRoot: String? = nil) {
        self.root = root
        self.displayRoot = displayRoot ?? root.path
    }

    public func appFolders() throws -> [String] {
        let entries = try FileManager.default.contentsOfDirectory(atPath: root.path)
        return entries.filter { entry in
            !entry.hasPrefix(".") && FileManager.default.kind(ofEntryAt: root.appendingPathComponent(entry).path) == .directory
        }.sorted()
    }

    public func fileExists(_ path: String) -> Bool {
        FileManager.default.kind(ofEntryAt: root.appendingPathComponent(path).path) == .file
    }

    public func read(_ path: String) throws -> [UInt8] {
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FixtureReadError(path: displayRoot + "/" + path, reason: "cannot be read")
        }
        return [UInt8](data)
    }
}
