/// Loads every app of a fixtures tree: one folder per app, each with an `app.json` manifest.
///
/// Loading is eager and complete: all manifests and the files they name are read, parsed and
/// checked, so a broken tree is reported in full (`mockstack validate`) and `serve` refuses to
/// start on it. Only a tree known to be byte for byte one that loaded (the load cache's hit,
/// docs/load-cache.md) may have its apps built after the ready line instead (``build(_:from:)``).
public struct AppLoader: Sendable {
    /// The manifest every app folder must contain.
    public static let manifestName = "app.json"
    /// Keys every manifest may have, whatever its kind.
    public static let commonKeys: Set<String> = ["$schema", "name", "mount", "kind", "description"]
    /// Mounts reserved for mockstack itself.
    public static let reservedMounts = ["/__mockstack", "/__session"]

    public var kinds: [any AppKind]

    /// - Parameter kinds: the app kinds manifests may use.
    public init(kinds: [any AppKind] = [StaticAppKind()]) {
        self.kinds = kinds
    }

    /// Loads every app, or throws ``FixtureErrors`` listing every mistake found.
    public func load(from source: any FixtureSource) throws(FixtureErrors) -> [any MockApp] {
        try loadDescribed(from: source).map(\.app)
    }

    /// One app of a load and what a later start needs to build it again after the ready line.
    public struct LoadedApp: Sendable {
        public var app: any MockApp
        public var description: DeferredAppDescription
    }

    /// What builds one app after the ready line: its folder, and the name, mount and kind its
    /// manifest gave (what the ready line, `/__mockstack/apps` and the control plane show
    /// before the build).
    public struct DeferredAppDescription: Sendable, Equatable {
        public var folder: String
        public var name: String
        public var mount: String
        public var kind: String

        public init(folder: String, name: String, mount: String, kind: String) {
            self.folder = folder
            self.name = name
            self.mount = mount
            self.kind = kind
        }
    }

    /// The folders of `source` that hold an app (an ``manifestName``), sorted.
    public static func appFolders(in source: any FixtureSource) throws -> [String] {
        try source.appFolders().filter { source.fileExists($0 + "/" + manifestName) }
    }

    /// ``load(from:)``, each app with its description.
    public func loadDescribed(from source: any FixtureSource) throws(FixtureErrors) -> [LoadedApp] {
        var diagnostics: [FixtureDiagnostic] = []
        var apps: [LoadedApp] = []
        var origins: [String: (file: String, pointer: String, position: SourcePosition)] = [:]

        let folders: [String]
        do {
            folders = try Self.appFolders(in: source)
        } catch {
            let unreadable = error as? FixtureReadError
            throw FixtureErrors([
                FixtureDiagnostic(
                    file: unreadable?.path ?? source.displayRoot, position: .start, pointer: "",
                    message: unreadable?.reason ?? "cannot list app folders: \(error)")
            ])
        }
        if folders.isEmpty {
            throw FixtureErrors([
                FixtureDiagnostic(
                    file: source.displayRoot, position: .start, pointer: "",
                    message: "no app folders with an \(Self.manifestName) manifest")
            ])
        }

        for folder in folders {
            guard let manifest = readManifest(folder: folder, source: source, into: &diagnostics) else { continue }
            if let app = makeApp(manifest) {
                for (key, value) in [("name", app.name), ("mount", app.mount)] {
                    let pointer = "/" + key
                    let id = key + ":" + value
                    if let first = origins[id] {
                        manifest.report(
                            "\(key) '\(value)' is already used by \(first.file):\(first.position)", at: pointer)
                    } else {
                        origins[id] = (manifest.file, pointer, manifest.document.position(of: pointer))
                    }
                }
                // The manifest's kind, which a kind's apps need not report as theirs.
                let kind = manifest.string("/kind") ?? app.kind
                apps.append(
                    LoadedApp(
                        app: app,
                        description: DeferredAppDescription(
                            folder: folder, name: app.name, mount: app.mount, kind: kind)))
            }
            diagnostics += manifest.diagnostics
        }
        if !diagnostics.isEmpty { throw FixtureErrors(diagnostics) }
        return apps
    }

    private func readManifest(
        folder: String, source: any FixtureSource, into diagnostics: inout [FixtureDiagnostic]
    ) -> ManifestReader? {
        let path = folder + "/" + Self.manifestName
        let file = source.displayPath(path)
        do {
            let document = try JSONParser().parse(try source.read(path), recordPositions: true)
            return ManifestReader(folder: folder, file: file, document: document, source: source)
        } catch let error as JSONSyntaxError {
            diagnostics.append(
                FixtureDiagnostic(
                    file: file, position: error.position, pointer: error.pointer,
                    message: "invalid JSON: \(error.message)"))
        } catch {
            diagnostics.append(
                FixtureDiagnostic(file: file, position: .start, pointer: "", message: "cannot read: \(error)"))
        }
        return nil
    }

    private func makeApp(_ manifest: ManifestReader) -> (any MockApp)? {
        guard case .object = manifest.root else {
            manifest.report("a manifest must be a JSON object, found \(manifest.root.typeName)", at: "")
            return nil
        }
        let name = manifest.string("/name") ?? manifest.folder
        if !Self.isValidName(name) {
            manifest.report(
                "app name '\(name)' may use only letters, digits, '-' and '_'",
                at: manifest.value(at: "/name") == nil ? "" : "/name")
        }
        let mount = manifest.string("/mount") ?? "/" + name
        if let problem = Self.mountProblem(mount) { manifest.report(problem, at: "/mount") }
        _ = manifest.string("/description")

        guard let kindName = manifest.string("/kind", required: true) else { return nil }
        guard let kind = kinds.first(where: { $0.name == kindName }) else {
            manifest.report(
                "unknown kind '\(kindName)' (expected one of: \(kinds.map(\.name).joined(separator: ", ")))",
                at: "/kind")
            return nil
        }
        manifest.rejectUnknownKeys(at: "", allowed: Self.commonKeys.union(kind.manifestKeys))
        let app = kind.makeApp(name: name, mount: mount, manifest: manifest)
        return manifest.diagnostics.isEmpty ? app : nil
    }

    /// The app `described`, built again from `source`: its manifest read again and its kind's
    /// whole load, every check included. For a load cache hit's apps, built after the ready
    /// line from fixtures a full load has already found free of mistakes. nil when no kind of
    /// this loader has that name.
    public func build(
        _ described: DeferredAppDescription, from source: any FixtureSource
    ) -> Result<any MockApp, FixtureErrors>? {
        guard let kind = kinds.first(where: { $0.name == described.kind }) else { return nil }
        var diagnostics: [FixtureDiagnostic] = []
        guard let manifest = readManifest(folder: described.folder, source: source, into: &diagnostics) else {
            return .failure(FixtureErrors(diagnostics))
        }
        let app = kind.makeApp(name: described.name, mount: described.mount, manifest: manifest)
        guard let app, manifest.diagnostics.isEmpty else {
            let unexplained = FixtureDiagnostic(
                file: manifest.file, position: .start, pointer: "", message: "the app could not be built")
            return .failure(FixtureErrors(manifest.diagnostics.isEmpty ? [unexplained] : manifest.diagnostics))
        }
        return .success(app)
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// Why a mount path is unusable, or `nil` when it is fine.
    static func mountProblem(_ mount: String) -> String? {
        if !mount.hasPrefix("/") || mount == "/" {
            return
                """
                mount '\(mount)' must start with '/' and name at least one segment (use --expose to serve an app at a \
                port's root)
                """
        }
        if mount.hasSuffix("/") || mount.contains("//") {
            return "mount '\(mount)' must not end with '/' or contain empty segments"
        }
        if mount.contains("?") || mount.contains("#") || mount.contains(" ") || mount.contains("%") {
            return "mount '\(mount)' must be a plain path (no '?', '#', '%' or spaces)"
        }
        if let reserved = reservedMounts.first(where: {
            MountTable.mount($0, owns: mount) || MountTable.mount(mount, owns: $0)
        }) {
            return "mount '\(mount)' collides with \(reserved), which mockstack reserves"
        }
        return nil
    }
}
