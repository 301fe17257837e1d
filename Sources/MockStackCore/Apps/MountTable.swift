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
        let mountLength = mount.utf8.count
        guard path.hasUTF8Prefix(mount) else { return false }
        return path.utf8.count == mountLength || path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: mountLength)] == UInt8(ascii: "/")
    }
}

extension String {
    /// Whether the UTF-8 bytes of `prefix` start this string's, compared over contiguous
    /// storage (the generic `starts(with:)` over UTF-8 views costs several times more).
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        let length = prefix.utf8.count
        guard utf8.count >= length else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            prefix.utf8.withContiguousStorageIfAvailable { theirs in
                UnsafeBufferPointer(rebasing: mine[..<length]).elementsEqual(theirs)
            }
        }
        return (contiguous ?? nil) ?? utf8.starts(with: prefix.utf8)
    }
}
