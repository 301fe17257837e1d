import MockStack
import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack routes [DIR…]`: a table of every app, mount, operation, verbs and route.
struct Routes: Subcommand {
    static let name = "routes"
    static let abstract = "List every app, its mount, and each operation or service with its verbs and route."

    var source = FixtureFoldersArguments()

    static let arguments: CommandArguments<Self>? = FixtureFoldersArguments.arguments.lifted(into: \Self.source)
    static let options = FixtureFoldersArguments.options.map { $0.lifted(into: \Self.source) }

    func validate() throws(UsageError) { try source.validate() }

    func run() throws {
        let folders = try source.folders()
        do {
            let apps = try AppLoader.standard.load(from: folders.source())
            print(RoutesTable(apps: apps).rendered, terminator: "")
        } catch {
            printFixtureProblems(error, ending: "no routes listed")
            throw ExitStatus(2)
        }
    }
}
