import MockStack
import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--fixtures DIR …`: the fixtures folders `serve`, `codegen`, `routes` and `validate` read, in
/// order, later folders winning on an app folder's name. Without the option, `MOCKSTACK_FIXTURES`
/// (folders separated by `:`, as `PATH` is), else the shipped apps' folder. The word `shipped`
/// stands for that folder, so a user's own apps can sit beside them
/// (`--fixtures shipped --fixtures ./mine`); `./shipped` is a folder of that name.
struct FixturesOption {
    var fixtures: [String] = []

    static let options: [CommandOption<Self>] = [
        .repeating(
            "fixtures", \.fixtures, valueName: "folder",
            help: """
                Fixtures folder; repeatable, later folders win on an app folder's name; 'shipped' is the shipped apps' \
                (env MOCKSTACK_FIXTURES, folders separated by ':'). [default: shipped]
                """)
    ]

    /// The folders to read, each checked: `arguments` (the folders `routes` and `validate` also
    /// take as arguments, which `validate()` keeps from meeting `--fixtures`), else `--fixtures`,
    /// else `MOCKSTACK_FIXTURES`, else the shipped one.
    ///
    /// A folder that is missing, is a file or cannot be listed ends the command with one line
    /// that names it, and exit status 2, before anything is loaded.
    func folders(arguments: [String] = []) throws(ExitStatus) -> FixtureFolders {
        if !arguments.isEmpty { return try Self.checked(arguments, givenAs: "fixtures folder") }
        if !fixtures.isEmpty { return try Self.checked(fixtures, givenAs: "--fixtures") }
        guard let environment = EnvironmentVariable.value("MOCKSTACK_FIXTURES") else {
            return try Self.checked([], givenAs: "--fixtures")
        }
        return try Self.checked(environment.split(separator: ":").map(String.init), givenAs: "MOCKSTACK_FIXTURES")
    }

    /// Refuses folders given both as arguments and with `--fixtures`: which would come first?
    func refuseBoth(arguments: [String]) throws(UsageError) {
        guard arguments.isEmpty || fixtures.isEmpty else {
            throw UsageError("give the fixtures folders as arguments or with --fixtures, not both")
        }
    }

    /// What `--fixtures` and `MOCKSTACK_FIXTURES` read as the shipped apps' folder.
    static let shippedWord = "shipped"

    /// `paths` as folders (`shipped` for the shipped one; none: the shipped one), each checked.
    /// - Parameter source: how the user gave them, for the message (`--fixtures`, `MOCKSTACK_FIXTURES`).
    private static func checked(_ paths: [String], givenAs source: String) throws(ExitStatus) -> FixtureFolders {
        guard !paths.isEmpty else { return FixtureFolders([try shipped(source)]) }
        var folders: [URL] = []
        for path in paths {
            if path == shippedWord {
                folders.append(try shipped(source))
                continue
            }
            let folder = URL(fileURLWithPath: path)
            if let problem = DirectoryFixtureSource.folderProblem(folder) {
                printError("mockstack: \(source) \(path): \(problem)")
                throw ExitStatus(2)
            }
            folders.append(folder)
        }
        return FixtureFolders(folders)
    }

    private static func shipped(_ source: String) throws(ExitStatus) -> URL {
        guard let shipped = FixturesLocator.shippedFixtures() else {
            printError("mockstack: no fixtures folder found next to the binary or where it was built; pass \(source)")
            throw ExitStatus(2)
        }
        return shipped
    }
}

/// Prints fixture mistakes, one line each (`file:line:column: /pointer: message`), with a
/// count after them when there is more than one.
func printFixtureProblems(_ errors: FixtureErrors, ending summary: String) {
    for diagnostic in errors.diagnostics { printError(diagnostic.description) }
    if errors.diagnostics.count > 1 {
        printError("mockstack: \(errors.diagnostics.count) fixture problems; \(summary)")
    }
}

/// What `load` returns; broken fixtures are printed one line each (then `summary`), any other
/// failure in one line, and either ends the command with exit status 2.
func loadedOrExit<Value>(ending summary: String, _ load: () throws -> Value) throws(ExitStatus) -> Value {
    do {
        return try load()
    } catch let errors as FixtureErrors {
        printFixtureProblems(errors, ending: summary)
        throw ExitStatus(2)
    } catch {
        printError("mockstack: \(error)")
        throw ExitStatus(2)
    }
}
