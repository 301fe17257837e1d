#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Finds the shipped `Fixtures/` folder when none is given, so a bare `mockstack serve` serves
/// every shipped app: next to the binary, in the package the binary was built from (also when
/// a client library built it as a dependency), or at the Docker image's install path.
public enum FixturesLocator {
    /// Where the Docker image installs the fixtures.
    public static let installedPath = "/usr/local/share/mockstack/Fixtures"

    /// The first existing candidate, or `nil`.
    public static func shippedFixtures(executable: URL? = RunningExecutable.url()) -> URL? {
        candidates(executable: executable).first { isFixturesFolder($0) }
    }

    static func candidates(executable: URL?) -> [URL] {
        var found: [URL] = []
        if let directory = executable?.deletingLastPathComponent() {
            found.append(directory.appendingPathComponent("Fixtures"))
            found.append(directory.deletingLastPathComponent().appendingPathComponent("share/mockstack/Fixtures"))
        }
        found.append(builtFrom.appendingPathComponent("Fixtures"))
        found.append(URL(fileURLWithPath: installedPath))
        return found
    }

    /// The package this file was compiled in — a checkout, or another package's dependency
    /// (`.build/checkouts/mockstack`, or a path) — as the compiler recorded it.
    static let builtFrom = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func isFixturesFolder(_ url: URL) -> Bool {
        FileStatus(path: url.path)?.kind == .directory
    }
}
