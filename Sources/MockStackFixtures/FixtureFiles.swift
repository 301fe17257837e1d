import MockStackCore

/// Where on disk a load from ``FixtureFolders`` reads each file, and which folders it lists:
/// what the load cache `stat`s (docs/load-cache.md), kept beside the source the load reads so
/// that fixture sources need not know about disks.
package struct FixtureFiles: Sendable {
    /// Each layer's root (``DirectoryFixtureSource/rootPath``), in order: the folders whose
    /// listing gives the app folders (the load cache keeps their `stat`: an entry added or
    /// removed changes a folder's times).
    let roots: [String]
    /// The layers read as one, when there are several: which of them a file is read from.
    let layered: LayeredFixtureSource?

    /// The file at `path` as the load reads it (not resolved further); nil when no layer holds
    /// it (of several) or the path is refused.
    func path(of file: String) -> String? {
        // Asked for every file at every start: paths only, so nothing but a string is copied.
        if layered == nil { return roots.isEmpty ? nil : DirectoryFixtureSource.filePath(file, inRoot: roots[0]) }
        guard let index = layered?.layerIndex(holding: file) else { return nil }
        return DirectoryFixtureSource.filePath(file, inRoot: roots[index])
    }
}
