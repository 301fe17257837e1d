/// Finds the app whose mount prefix owns a request path.
///
/// Mounts match on whole segments (`/test` owns `/test` and `/test/api/Hello`, not
/// `/testing`); the longest mount wins so nested mounts work.
public struct MountTable: Sendable {
    public let apps: [any MockApp]
    /// Longest mount first; the mount is read once here rather than through the protocol on
    /// every request.
    private let byMountLength: [(mount: String, app: any MockApp)]

    public init(apps: [any MockApp]) {
        self.apps = apps
        byMountLength = apps.map { ($0.mount, $0) }.sorted { $0.mount.utf8.count > $1.mount.utf8.count }
    }

    /// The app that owns `path`, if any.
    public func app(owning path: String) -> (any MockApp)? {
        // By index, so that only the matching entry's existential is copied out.
        for index in byMountLength.indices where Self.mount(byMountLength[index].mount, owns: path) {
            return byMountLength[index].app
        }
        return nil
    }

    /// The app with this name.
    public func app(named name: String) -> (any MockApp)? {
        apps.first { $0.name == name }
    }

    /// Whether `mount` owns `path` on a segment boundary.
    public static func mount(_ mount: String, owns path: String) -> Bool {
        // Byte-wise: `String.hasPrefix` compares canonically equivalent Unicode, which a path
        // match does not want and which costs more on every request.
        guard path.utf8.starts(with: mount.utf8) else { return false }
        let rest = path.utf8.dropFirst(mount.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}

