/// Finds the app whose mount prefix owns a request path.
///
/// Mounts match on whole segments (`/test` owns `/test` and `/test/api/Hello`, not
/// `/testing`); the longest mount wins so nested mounts work.
///
/// A class, never changed once made: a session hands its table to every request made in it,
/// and a reference is one count where the arrays are several (and as many releases).
public final class MountTable: Sendable {
    public let apps: [any MockApp]
    private let lookup: MountIndex

    public init(apps: [any MockApp]) {
        self.apps = apps
        lookup = MountIndex(mounts: apps.map(\.mount))
    }

    /// The app that owns `path`, if any.
    public func app(owning path: String) -> (any MockApp)? {
        lookup.index(owning: path).map { apps[$0] }
    }

    /// The app with this name.
    public func app(named name: String) -> (any MockApp)? {
        apps.first { $0.name == name }
    }

    /// Whether `mount` owns `path` on a segment boundary.
    public static func mount(_ mount: String, owns path: String) -> Bool {
        Self.mount(Array(mount.utf8), owns: path)
    }

    /// Whether the mount whose UTF-8 is `mount` owns `path` on a segment boundary: the form for
    /// a prefix checked on every request.
    public static func mount(_ mount: [UInt8], owns path: String) -> Bool {
        UTF8Bytes.withSpan(path) { MountIndex.mount(mount, owns: $0) }
    }
}
