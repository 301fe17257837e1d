/// Several fixtures folders read as one (`serve --fixtures shipped --fixtures ./mine`): a user's
/// apps sit beside the shipped ones without copying them.
///
/// An app folder of a later layer replaces the earlier layers' folder of the same name, whole:
/// none of its files are mixed with theirs. A path outside every app folder (a stub's
/// `bodyFile: "reply.json"`) is looked for in the later layers first.
public struct LayeredFixtureSource: FixtureSource {
    public let layers: [any FixtureSource]
    /// App folder → the index of the layer it is read from.
    private let owners: [String: Int]

    /// Lists every layer's app folders once.
    /// - Throws: ``FixtureErrors`` naming each layer that cannot be listed.
    public init(_ layers: [any FixtureSource]) throws(FixtureErrors) {
        precondition(!layers.isEmpty, "a layered fixture source needs at least one layer")
        var owners: [String: Int] = [:]
        var diagnostics: [FixtureDiagnostic] = []
        for (index, layer) in layers.enumerated() {
            do {
                for folder in try layer.appFolders() { owners[folder] = index }
            } catch {
                let reason = (error as? FixtureReadError)?.reason ?? "cannot list app folders: \(error)"
                diagnostics.append(
                    FixtureDiagnostic(file: layer.displayRoot, position: .start, pointer: "", message: reason))
            }
        }
        guard diagnostics.isEmpty else { throw FixtureErrors(diagnostics) }
        self.layers = layers
        self.owners = owners
    }

    /// Every layer's root, in order (`Fixtures + mine`).
    public var displayRoot: String { layers.map(\.displayRoot).joined(separator: " + ") }

    public func appFolders() throws -> [String] { owners.keys.sorted() }

    public func fileExists(_ path: String) -> Bool { layer(for: path) != nil }

    public func read(_ path: String) throws -> [UInt8] {
        guard let layer = layer(for: path) else {
            throw FixtureReadError(path: displayPath(path), reason: "no such file")
        }
        return try layer.read(path)
    }

    /// The path as the layer it is read from names it, so a diagnostic points at the right folder.
    public func displayPath(_ path: String) -> String {
        let layer =
            appFolder(of: path).flatMap { owners[$0] }.map { layers[$0] } ?? layers.last { $0.fileExists(path) }
            ?? layers[layers.count - 1]
        return layer.displayPath(path)
    }

    /// The index in ``layers`` of the layer that holds `path`: its app folder's owner, or the
    /// latest layer with such a file; nil when none does.
    public func layerIndex(holding path: String) -> Int? {
        if let folder = appFolder(of: path), let owner = owners[folder] {
            return layers[owner].fileExists(path) ? owner : nil
        }
        return layers.lastIndex { $0.fileExists(path) }
    }

    private func layer(for path: String) -> (any FixtureSource)? {
        layerIndex(holding: path).map { layers[$0] }
    }

    private func appFolder(of path: String) -> String? {
        guard let slash = path.firstIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
