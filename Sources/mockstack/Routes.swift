import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStack
import MockStackCore

/// `mockstack routes [DIR]`: a table of every app, mount, operation, verbs and route.
struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List every app, its mount, and each operation or service with its verbs and route.")

    @Argument(help: "The fixtures folder. [default: the shipped Fixtures/]")
    var directory: String?

    func run() throws {
        let root = try fixturesFolder(directory, givenAs: "fixtures folder")
        do {
            let apps = try AppLoader.standard.load(from: DirectoryFixtureSource(root: root, displayRoot: directory ?? root.path))
            print(RoutesTable(apps: apps).rendered, terminator: "")
        } catch {
            printFixtureProblems(error, ending: "no routes listed")
            throw ExitCode(2)
        }
    }
}
