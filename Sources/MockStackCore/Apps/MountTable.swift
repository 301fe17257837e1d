/// Finds the app whose mount prefix owns a request path.
///
/// Mounts match on whole segments (`/test` owns `/test` and `/test/api/Hello`, not
/// `/testing`); the longest mount wins so nested mounts work.
///
/// A class, never changed once made: the registry hands the current table to every request,
/// and a reference is one count where the three arrays were three (and three releases).
public final class MountTable: Sendable {
    public let apps: [any MockApp]
    /// The mounts' bytes, longest first, read once here rather than through the protocol on
    /// every request; `appsByMountLength` holds their apps in the same order. Two arrays, so
    /// that the search compares bytes only and just the winner's existential is copied out.
    private let mountsByLength: [[UInt8]]
    private let appsByMountLength: [any MockApp]

    public init(apps: [any MockApp]) {
        self.apps = apps
        let sorted = apps.sorted { $0.mount.utf8.count > $1.mount.utf8.count }
        mountsByLength = sorted.map { Array($0.mount.utf8) }
        appsByMountLength = sorted
    }

    /// The app that owns `path`, if any.
    public func app(owning path: String) -> (any MockApp)? {
        // The path's bytes are reached once for all the mounts.
        let index = UTF8Bytes.withSpan(path) { bytes in mountsByLength.firstIndex { Self.mount($0, owns: bytes) } }
        return index.map { appsByMountLength[$0] }
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
        UTF8Bytes.withSpan(path) { Self.mount(mount, owns: $0) }
    }

    /// Whether `mount` owns the path whose bytes are `path`: ruled out by its length and the
    /// byte after it first, then compared byte by byte (mounts are a few bytes long).
    private static func mount(_ mount: [UInt8], owns path: Span<UInt8>) -> Bool {
        let count = mount.count
        guard path.count >= count, path.count == count || path[count] == UInt8(ascii: "/") else { return false }
        for index in 0..<count where mount[index] != path[index] { return false }
        return true
    }
}
