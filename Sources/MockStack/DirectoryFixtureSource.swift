public import Foundation
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
            var isDirectory: ObjCBool = false
            return !entry.hasPrefix(".") && FileManager.default.fileExists(atPath: root.appendingPathComponent(entry).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    public func fileExists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    public func read(_ path: String) throws -> [UInt8] {
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FixtureReadError(path: displayRoot + "/" + path, reason: "cannot be read")
        }
        return [UInt8](data)
    }
}
