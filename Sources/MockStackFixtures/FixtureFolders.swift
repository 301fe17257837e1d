public import MockStackCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The fixtures folders a server reads, in the order given: one folder, or several read as one
/// (``LayeredFixtureSource``: a later folder's app folder replaces an earlier one of the same
/// name). Diagnostics name each folder as it was given.
public struct FixtureFolders: Sendable {
    public let folders: [URL]

    /// - Parameter folders: the folders; none for a server that loads no apps (`mockstack record`).
    public init(_ folders: [URL]) {
        self.folders = folders
    }

    /// Every app folder of every folder, the later folders winning.
    /// - Parameter forOneLoad: a source read by one load and then dropped, which may remember
    ///   its folders' real paths (``DirectoryFixtureSource/init(root:displayRoot:remembersFolders:)``).
    public func source(forOneLoad: Bool = false) throws(FixtureErrors) -> any FixtureSource {
        try sourceOnDisk(forOneLoad: forOneLoad).source
    }

    /// ``source(forOneLoad:)``, and where on disk it reads each file (what the load cache
    /// `stat`s).
    package func sourceOnDisk(
        forOneLoad: Bool = false
    ) throws(FixtureErrors)
        -> (source: any FixtureSource, files: FixtureFiles)
    {
        if folders.isEmpty {
            let nothing = InMemoryFixtureSource(files: [:], displayRoot: "(no fixtures folder)")
            return (nothing, FixtureFiles(roots: [], layered: nil))
        }
        let layers = folders.map {
            DirectoryFixtureSource(root: $0, displayRoot: $0.relativePath, remembersFolders: forOneLoad)
        }
        guard layers.count > 1 else { return (layers[0], FixtureFiles(roots: [layers[0].rootPath], layered: nil)) }
        let layered = try LayeredFixtureSource(layers)
        return (layered, FixtureFiles(roots: layers.map(\.rootPath), layered: layered))
    }

    /// `everything` narrowed to `apps` (`serve --apps test,ai`) when given.
    public static func narrowed(
        _ everything: any FixtureSource, to apps: [String]?
    ) throws(FixtureErrors) -> any FixtureSource {
        guard let apps else { return everything }
        return try SelectedFixtureSource(everything, folders: apps)
    }
}
