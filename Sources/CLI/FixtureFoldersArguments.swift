import ArgumentParser
import MockStack

/// The fixtures folders `routes` and `validate` read: given as arguments or with `--fixtures`,
/// not both (``FixturesOption/refuseBoth(arguments:)``).
struct FixtureFoldersArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The fixtures folders, as --fixtures takes them.", valueName: "folder"))
    var directories: [String] = []

    @OptionGroup var fixtures: FixturesOption

    func validate() throws { try fixtures.refuseBoth(arguments: directories) }

    /// The folders to read, each checked (``FixturesOption/folders(arguments:)``).
    func folders() throws(ExitCode) -> FixtureFolders { try fixtures.folders(arguments: directories) }

    /// The folders as the command line named them, if it did.
    var named: [String] { directories.isEmpty ? fixtures.fixtures : directories }
}
