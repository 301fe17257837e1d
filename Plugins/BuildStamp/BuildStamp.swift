import Foundation
import PackagePlugin

/// Embeds three facts about the build in the target it is applied to: the release (the
/// package's `VERSION` file), the git commit HEAD names in a checkout, and the package's own
/// folder, where a spawned `mockstack` finds the shipped `Fixtures/` when it was built as
/// another package's dependency. `build-stamp` writes them as Swift; its inputs are declared,
/// so the file is written again only when one of them changes.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildStamp.swift")
        return [
            .buildCommand(
                displayName: "Stamping mockstack's version",
                executable: try context.tool(named: "build-stamp").url,
                arguments: [package.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [package.appending(path: "VERSION")] + GitHead.files(in: package),
                outputFiles: [output]
            )
        ]
    }
}

/// The files whose change means a different commit: `.git/HEAD` and the branch file it names
/// (or `packed-refs`, where git keeps branches it has packed). None outside a git checkout.
enum GitHead {
    static func files(in package: URL) -> [URL] {
        let git = package.appending(path: ".git")
        let head = git.appending(path: "HEAD")
        guard let text = try? String(contentsOf: head, encoding: .utf8) else { return [] }
        var files = [head]
        if text.hasPrefix("ref: ") {
            let reference = text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(git.appending(path: reference))
            files.append(git.appending(path: "packed-refs"))
        }
        return files.filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
    }
}
