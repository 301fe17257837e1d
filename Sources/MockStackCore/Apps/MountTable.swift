/// Finds the app whose mount prefix owns a request path.
///
/// Mounts match on whole segments (`/test` owns `/test` and `/test/api/Hello`, not
/// `/testing`); the longest mount wins so nested mounts work.
public struct MountTable: Sendable {
    public let apps: [any MockApp]
    private let byMountLength: [any MockApp]

    public init(apps: [any MockApp]) {
        self.apps = apps
        byMountLength = apps.sorted { $0.mount.utf8.count > $1.mount.utf8.count }
    }

    /// The app that owns `path`, if any.
    public func app(owning path: String) -> (any MockApp)? {
        byMountLength.first { Self.mount($0.mount, owns: path) }
    }

    /// The app with this name.
    public func app(named name: String) -> (any MockApp)? {
        apps.first { $0.name == name }
    }

    /// Whether `mount` owns `path` on a segment boundary.
    public static func mount(_ mount: String, owns path: String) -> Bool {
        guard path.hasPrefix(mount) else { return false }
        let rest = path.utf8.dropFirst(mount.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}
