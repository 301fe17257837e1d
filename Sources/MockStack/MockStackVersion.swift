/// The mockstack release this build reports (`mockstack --version`, the ready line, the health
/// check), embedded at build time from the package's `VERSION` file by the BuildStamp plugin.
public enum MockStackVersion {
    /// The release, e.g. `0.1.0`.
    public static let current = embeddedVersion

    /// The abbreviated git commit the build was made from; `nil` outside a git checkout (a
    /// Docker build's context leaves `.git` out).
    public static let commit: String? = embeddedCommit

    /// `0.1.0 (4581ba0)`, or just the release when the commit is unknown.
    public static var description: String {
        commit.map { "\(current) (\($0))" } ?? current
    }
}
