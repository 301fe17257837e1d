import Foundation
import PackagePlugin

/// Stamps the git commit a build was made from into the target it is applied to (the
/// `mockstack` executable, so `mockstack --version` can say which commit it is). Only the
/// executable takes it: a package that depends on the libraries alone never runs a plugin.
///
/// The plugin reads the commit itself, from git's own files, and has the system's `sh` write
/// the one-line Swift file: no tool of its own to compile and link before a client's first
/// build can start. The command's inputs are git's files for HEAD and its arguments hold the
/// text, so it runs again only after a commit or a checkout; outside a git checkout the stamp is
/// `nil`.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let checkout = GitCheckout(package: context.package.directoryURL)
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildStamp.swift")
        let commit = checkout?.commit
            .flatMap { $0.count >= 7 && $0.allSatisfy(\.isHexDigit) ? String($0.prefix(7)) : nil }
        let source = """
            // Written by the BuildStamp plugin at build time; do not edit.
            let buildCommit: String? = \(commit.map { "\"\($0)\"" } ?? "nil")

            """
        return [
            .buildCommand(
                displayName: "Stamping mockstack's commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    "-c", #"printf '%s' "$1" > "$2""#, "build-stamp", source, output.path(percentEncoded: false),
                ],
                inputFiles: checkout?.headFiles ?? [],
                outputFiles: [output]
            )
        ]
    }
}
