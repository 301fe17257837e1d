/// Which of a list of mounts owns a request path: mounts match on whole segments (`/test` owns
/// `/test` and `/test/api/Hello`, not `/testing`) and the longest wins, so nested mounts work.
///
/// The lookup behind ``MountTable`` and the registry's table of mounted apps: each keeps its
/// values in the order it gave the mounts, and reads the winner's by the index this returns.
package struct MountIndex: Sendable {
    /// The mounts' bytes, longest first, read once here rather than through the protocol on
    /// every request; `positions` holds each one's index in the order given.
    private let mountsByLength: [[UInt8]]
    private let positions: [Int]

    /// - Parameter mounts: the mounts, in the order their owner keeps its values.
    package init(mounts: [String]) {
        let sorted = mounts.indices.sorted { mounts[$0].utf8.count > mounts[$1].utf8.count }
        mountsByLength = sorted.map { Array(mounts[$0].utf8) }
        positions = sorted
    }

    /// The index (in the order given) of the mount that owns `path`, if any.
    package func index(owning path: String) -> Int? {
        // The path's bytes are reached once for all the mounts.
        let found = UTF8Bytes.withSpan(path) { bytes in mountsByLength.firstIndex { Self.mount($0, owns: bytes) } }
        return found.map { positions[$0] }
    }

    /// Whether the mount whose UTF-8 is `mount` owns the path whose bytes are `path`: ruled out
    /// by its length and the byte after it first, then compared byte by byte (mounts are a few
    /// bytes long).
    static func mount(_ mount: [UInt8], owns path: Span<UInt8>) -> Bool {
        let count = mount.count
        guard path.count >= count, path.count == count || path[count] == UInt8(ascii: "/") else { return false }
        for index in 0..<count where mount[index] != path[index] { return false }
        return true
    }
}
