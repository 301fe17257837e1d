import MockStack

/// The fixtures folders `routes` and `validate` read: given as arguments or with `--fixtures`,
/// not both (``FixturesOption/refuseBoth(arguments:)``).
struct FixtureFoldersArguments {
    var directories: [String] = []
    var fixtures = FixturesOption()

    static let arguments = CommandArguments<Self>.many(
        \.directories, valueName: "folder", help: "The fixtures folders, as --fixtures takes them.")

    static let options = FixturesOption.options.map { $0.lifted(into: \Self.fixtures) }

    func validate() throws(UsageError) { try fixtures.refuseBoth(arguments: directories) }

    /// The folders to read, each checked (``FixturesOption/folders(arguments:)``).
    func folders() throws(ExitStatus) -> FixtureFolders { try fixtures.folders(arguments: directories) }

    /// The folders as the command line named them, if it did.
    var named: [String] { directories.isEmpty ? fixtures.fixtures : directories }
}
