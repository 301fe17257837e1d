import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStack
import MockStackCore

/// `mockstack validate DIR`: check a fixtures folder and point at every mistake.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a fixtures folder; print every mistake as file:line:column: /json/pointer: message.",
        discussion: "Exit status 0 when the folder loads, 1 when it has mistakes."
    )

    @Argument(help: "The fixtures folder.")
    var directory: String

    func run() throws {
        let root = try fixturesFolder(directory, givenAs: "fixtures folder")
        do {
            let apps = try AppLoader.standard.load(from: DirectoryFixtureSource(root: root, displayRoot: directory))
            let routes = apps.reduce(0) { $0 + $1.routes.count }
            print("ok: \(apps.count) app(s) (\(apps.map(\.name).joined(separator: ", "))), \(routes) route(s)")
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.description) }
            printError("\(error.diagnostics.count) problem(s) in \(directory)")
            throw ExitCode(1)
        }
    }
}
