import ArgumentParser
import MockStack
import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack routes [DIR…]`: a table of every app, mount, operation, verbs and route.
struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List every app, its mount, and each operation or service with its verbs and route.")

    @OptionGroup var source: FixtureFoldersArguments

    func run() throws {
        let folders = try source.folders()
        do {
            let apps = try AppLoader.standard.load(from: folders.source())
            print(RoutesTable(apps: apps).rendered, terminator: "")
        } catch {
            printFixtureProblems(error, ending: "no routes listed")
            throw ExitCode(2)
        }
    }
}
