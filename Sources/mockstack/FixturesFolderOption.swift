import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStack
import MockStackCore

/// The fixtures folder a command works on: the one it was given, checked, or the shipped one.
///
/// A folder that is missing, is a file or cannot be listed ends the command with one line that
/// names it, and exit status 2, before anything is loaded.
/// - Parameters:
///   - path: the folder given, if any.
///   - source: how the user gave it, for the message (`--fixtures`, `MOCKSTACK_FIXTURES`).
func fixturesFolder(_ path: String?, givenAs source: String) throws(ExitCode) -> URL {
    guard let path else {
        guard let shipped = FixturesLocator.shippedFixtures() else {
            printError("mockstack: no fixtures folder found next to the binary or where it was built; pass \(source)")
            throw ExitCode(2)
        }
        return shipped
    }
    let folder = URL(fileURLWithPath: path)
    if let problem = DirectoryFixtureSource.folderProblem(folder) {
        printError("mockstack: \(source) \(path): \(problem)")
        throw ExitCode(2)
    }
    return folder
}

/// Prints fixture mistakes, one line each (`file:line:column: /pointer: message`), with a
/// count after them when there is more than one.
func printFixtureProblems(_ errors: FixtureErrors, ending summary: String) {
    for diagnostic in errors.diagnostics { printError(diagnostic.description) }
    if errors.diagnostics.count > 1 { printError("mockstack: \(errors.diagnostics.count) fixture problems; \(summary)") }
}
