/// A kind of app a manifest can declare (`"kind": "static"`): it validates the manifest's
/// kind-specific keys and builds the app.
public protocol AppKind: Sendable {
    /// The value of the manifest's `kind` key.
    var name: String { get }
    /// Top-level manifest keys this kind understands, besides the common ones.
    var manifestKeys: Set<String> { get }
    /// Builds the app, reporting every mistake through `manifest`; returns `nil` when the
    /// manifest cannot produce a usable app.
    func makeApp(name: String, mount: String, manifest: ManifestReader) -> (any MockApp)?
}
