/// The mockstack release this build is (the ready line, `mockstack --version`): the newest
/// release in CHANGELOG.md, which a test keeps the two in step with. The `mockstack` executable
/// adds the git commit it was built from, stamped at build time.
public enum MockStackVersion {
    /// The release, e.g. `0.1.0`.
    public static let current = "0.1.0"

    /// `0.1.0 (4581ba0)` given a commit, else just the release.
    public static func description(commit: String?) -> String {
        commit.map { "\(current) (\($0))" } ?? current
    }
}
