import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStack
import MockStackCore

/// `mockstack validate DIR…`: check fixtures folders (read as `serve` reads them) and point at
/// every mistake.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check fixtures folders; print every mistake as file:line:column: /json/pointer: message.",
        discussion: "Several folders are read as serve --fixtures reads them: later ones win on an app folder's name, and 'shipped' is the shipped apps' folder. Exit status 0 when they load, 1 when they have mistakes."
    )

    @Argument(help: ArgumentHelp("The fixtures folders.", valueName: "folder"))
    var directories: [String]

    func run() throws {
        let folders = try fixtureFolders(directories, givenAs: "fixtures folder")
        do {
            let apps = try AppLoader.standard.load(from: folders.source())
            let routes = apps.reduce(0) { $0 + $1.routes.count }
            print("ok: \(apps.count) app(s) (\(apps.map(\.name).joined(separator: ", "))), \(routes) route(s)")
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.description) }
            printError("\(error.diagnostics.count) problem(s) in \(directories.joined(separator: " + "))")
            throw ExitCode(1)
        }
    }
}
