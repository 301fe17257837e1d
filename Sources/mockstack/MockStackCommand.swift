import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import MockStack

/// `mockstack`: a mock ServiceStack / FeathersJS server for client-library tests.
@main
struct MockStackCommand: ParsableCommand {
    // Every command names itself: left to derive it, ArgumentParser would call
    // `String(describing:)` on the type, whose casts scan all of the binary's protocol
    // conformances, some 5 million instructions before anything is parsed.
    static let configuration = CommandConfiguration(
        commandName: "mockstack",
        abstract: "A fast, offline, deterministic mock ServiceStack / FeathersJS server for client-library tests.",
        version: MockStackVersion.description(commit: buildCommit),
        subcommands: [Serve.self, Validate.self, Routes.self, Health.self, Codegen.self]
    )

    static func main() {
        // A statically linked Swift runtime reads the arguments from /proc/self/cmdline. Where
        // that is missing (a chroot without /proc) it sees none, and `mockstack health` would
        // print the help and exit 0: a probe that passes without probing. Refuse instead.
        #if os(Linux)
        let unreadable = CommandLine.arguments.count <= 1 && access("/proc/self/cmdline", R_OK) != 0
        #else
        let unreadable = false
        #endif
        guard !unreadable else {
            printError("mockstack: cannot read its own arguments (is /proc mounted?)")
            Self.exit(withError: ExitCode(2))
        }
        Self.main(nil)
    }
}
