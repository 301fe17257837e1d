import ArgumentParser
import MockStack

/// `mockstack`: a mock ServiceStack / FeathersJS server for client-library tests.
@main
struct MockStackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockstack",
        abstract: "A fast, offline, deterministic mock ServiceStack / FeathersJS server for client-library tests.",
        version: MockStackVersion.description(commit: buildCommit),
        subcommands: [Serve.self, Validate.self, Routes.self, Health.self, Codegen.self]
    )
}
