import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStack
import MockStackCore

/// The fixtures folders a command works on, in order: the ones it was given, each checked, or
/// the shipped one. The word `shipped` stands for the shipped apps' folder, so a user's own apps
/// can sit beside them (`--fixtures shipped --fixtures ./mine`); `./shipped` is a folder of that name.
///
/// A folder that is missing, is a file or cannot be listed ends the command with one line that
/// names it, and exit status 2, before anything is loaded.
/// - Parameters:
///   - paths: the folders given, if any.
///   - source: how the user gave them, for the message (`--fixtures`, `MOCKSTACK_FIXTURES`).
func fixtureFolders(_ paths: [String], givenAs source: String) throws(ExitCode) -> FixtureFolders {
    guard !paths.isEmpty else { return FixtureFolders([try shippedFixtures(source)]) }
    var folders: [URL] = []
    for path in paths {
        if path == shippedFixturesWord {
            folders.append(try shippedFixtures(source))
            continue
        }
        let folder = URL(fileURLWithPath: path)
        if let problem = DirectoryFixtureSource.folderProblem(folder) {
            printError("mockstack: \(source) \(path): \(problem)")
            throw ExitCode(2)
        }
        folders.append(folder)
    }
    return FixtureFolders(folders)
}

/// What `--fixtures` and `MOCKSTACK_FIXTURES` read as the shipped apps' folder.
let shippedFixturesWord = "shipped"

/// `MOCKSTACK_FIXTURES`: folders separated by `:`, as `PATH` is (`shipped:/fixtures`).
func fixturePaths(fromEnvironment value: String?) -> [String] {
    (value ?? "").split(separator: ":").map(String.init)
}

private func shippedFixtures(_ source: String) throws(ExitCode) -> URL {
    guard let shipped = FixturesLocator.shippedFixtures() else {
        printError("mockstack: no fixtures folder found next to the binary or where it was built; pass \(source)")
        throw ExitCode(2)
    }
    return shipped
}

/// Prints fixture mistakes, one line each (`file:line:column: /pointer: message`), with a
/// count after them when there is more than one.
func printFixtureProblems(_ errors: FixtureErrors, ending summary: String) {
    for diagnostic in errors.diagnostics { printError(diagnostic.description) }
    if errors.diagnostics.count > 1 { printError("mockstack: \(errors.diagnostics.count) fixture problems; \(summary)") }
}
