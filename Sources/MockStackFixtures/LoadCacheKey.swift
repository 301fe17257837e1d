import MockStackCore

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Everything a load's outcome depends on besides its fixture files' bytes, known before the
/// load: this binary (its release and commit, and ``ExecutableIdentity``: the linker's build ID,
/// else the file's size, modification time and inode — a rebuilt binary never meets an older
/// build's record), the fixtures folders' real
/// paths in order, the `--apps` selection and `--fixed-date`. The record's file name is a
/// digest of it, and the record holds it whole, so two keys never share a record.
package struct LoadCacheKey: Equatable {
    /// The key written out, one field a line; strings length-prefixed.
    let text: String

    /// nil when the executable cannot be found or a folder does not exist (there is then no
    /// cache for this load; the full load reports a missing folder as usual).
    package init?(
        version: String, folders: [URL], apps: [String]?, fixedDate: String?, executable: URL? = RunningExecutable.url()
    ) {
        guard let executable, let binary = ExecutableIdentity.describe(executable) else { return nil }
        var lines = ["mockstack load cache key 1", "version " + Self.quoted(version), "binary " + binary]
        for folder in folders {
            guard let real = DirectoryFixtureSource.resolvingSymlinks(folder.path) else { return nil }
            lines.append("folder " + Self.quoted(real))
        }
        lines.append(apps.map { "apps \($0.count) " + $0.map(Self.quoted).joined(separator: " ") } ?? "apps all")
        lines.append(fixedDate.map { "fixed-date " + Self.quoted($0) } ?? "fixed-date none")
        text = lines.joined(separator: "\n") + "\n"
    }

    /// The record's file name: the key's 128-bit ``FixtureDigest``, in hex.
    var fileName: String {
        var digest = FixtureDigest()
        digest.update(Array(text.utf8))
        return HexText.of(digest.finalize()) + LoadCache.recordSuffix
    }

    private static func quoted(_ text: String) -> String { "\(text.utf8.count):\(text)" }
}
