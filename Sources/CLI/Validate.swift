import MockStack
import MockStackCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack validate [DIR…]`: check fixtures folders (read as `serve` reads them) and point at
/// every mistake.
struct Validate: Subcommand {
    static let name = "validate"
    static let abstract = "Check fixtures folders; print every mistake as file:line:column: /json/pointer: message."
    static let discussion = """
        Several folders are read as serve --fixtures reads them: later ones win on an app folder's name, and \
        'shipped' is the shipped apps' folder. Without folders, MOCKSTACK_FIXTURES's, else the shipped one. Exit \
        status 0 when they load, 1 when they have mistakes. Once they load, a load cache record is written \
        (MOCKSTACK_CACHE_DIR, else $XDG_CACHE_HOME/mockstack, else ~/.cache/mockstack) for the next serve of the \
        same folders (MOCKSTACK_CACHE_DIR=off: none).
        """

    var source = FixtureFoldersArguments()

    static let arguments: CommandArguments<Self>? = FixtureFoldersArguments.arguments.lifted(into: \Self.source)
    static let options = FixtureFoldersArguments.options.map { $0.lifted(into: \Self.source) }

    func validate() throws(UsageError) { try source.validate() }

    func run() throws {
        let folders = try source.folders()
        do {
            // A record for the next `serve` of these folders (the Docker image warms its cache so);
            // one that could not be written is said, since the next start is then the slow one.
            let folder = LoadCache.defaultFolder(environment: EnvironmentVariable.values(LoadCache.environmentNames))
            let (apps, note) = try LoadCache.validatedLoad(
                folders, version: MockStackVersion.description(commit: buildCommit), in: folder)
            if let note { printError("load cache: \(note)") }
            let routes = apps.reduce(0) { $0 + $1.routes.count }
            print("ok: \(apps.count) app(s) (\(apps.map(\.name).joined(separator: ", "))), \(routes) route(s)")
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic.description) }
            let named = source.named.isEmpty ? folders.folders.map(\.path) : source.named
            printError("\(error.diagnostics.count) problem(s) in \(named.joined(separator: " + "))")
            throw ExitStatus(1)
        }
    }
}
