import Foundation
import PackagePlugin

/// Stamps the git commit a build was made from into the target it is applied to (the
/// `mockstack` executable, so `mockstack --version` can say which commit it is). Only the
/// executable takes it: a package that depends on the libraries alone never runs a plugin.
/// The inputs are git's files for HEAD, so the stamp is rewritten only after a commit or a
/// checkout; outside a git checkout it records none.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildStamp.swift")
        return [
            .buildCommand(
                displayName: "Stamping mockstack's commit",
                executable: try context.tool(named: "build-stamp").url,
                arguments: [package.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: GitCheckout(package: package)?.headFiles ?? [],
                outputFiles: [output]
            )
        ]
    }
}
