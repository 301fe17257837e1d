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
    /// Whether this kind's apps are ``RealtimeApp``s (they hold sockets): a load cache hit,
    /// which builds every app after the ready line (``DeferredApp``), then makes them
    /// ``DeferredRealtimeApp``s so the control plane and the journal find them before the build.
    /// No by default.
    var makesRealtimeApps: Bool { get }
    /// What a deferred app of this kind answers when its build fails after all: a 500 in its
    /// own server's format.
    func unavailable(_ message: String) -> HTTPResponse
}

extension AppKind {
    public var makesRealtimeApps: Bool { false }

    public func unavailable(_ message: String) -> HTTPResponse { PlainError.response(500, message) }
}
