import MockStackCore

/// Where on disk a load from ``FixtureFolders`` reads each file, and which folders it lists:
/// what the load cache `stat`s (docs/load-cache.md), kept beside the source the load reads so
/// that fixture sources need not know about disks.
package struct FixtureFiles: Sendable {
    let layers: [DirectoryFixtureSource]
    /// The layers read as one, when there are several: which of them a file is read from.
    let layered: LayeredFixtureSource?

    /// The file at `path` as the load reads it (not resolved further); nil when no layer holds
    /// it (of several) or the path is refused.
    func path(of file: String) -> String? {
        // Asked once a file at every start: the layers are read in place, never copied out
        // (each copy is a retain and a release of every reference a source holds).
        if layered == nil { return layers.isEmpty ? nil : layers[0].filePath(file) }
        return layered?.layerIndex(holding: file).flatMap { layers[$0].filePath(file) }
    }

    /// The folders whose listing gives the app folders, in order.
    var listedFolders: [String] { layers.flatMap(\.listedFolders) }
}
