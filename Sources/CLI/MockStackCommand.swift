import ArgumentParser
import MockStack
import MockStackCore

#if canImport(Glibc)
import Glibc
#endif

/// `mockstack`: a mock ServiceStack / FeathersJS server for client-library tests.
@main
struct MockStackCommand: ParsableCommand {
    // Every command names itself: left to derive it, ArgumentParser would call
    // `String(describing:)` on the type, whose casts scan all of the binary's protocol
    // conformances before anything is parsed.
    static let configuration = CommandConfiguration(
        commandName: "mockstack",
        abstract: "A fast, offline, deterministic mock ServiceStack / FeathersJS server for client-library tests.",
        version: MockStackVersion.description(commit: buildCommit),
        subcommands: [Serve.self, Record.self, Validate.self, Routes.self, Health.self, Codegen.self]
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
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parsedServe(arguments) ?? parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(afterFailing: error, arguments: arguments)
        }
    }

    /// `serve …` parsed by `serve` itself, or nil: a plain command line by its fast path, which
    /// touches no reflection (`Serve(plainArguments:)`), anything else by ArgumentParser with
    /// `serve` as its own root. Parsed from the root, ArgumentParser builds `serve`'s argument
    /// set four times (twice to ask whether it takes the rest of the line, once to parse and
    /// once to look for a catch-all argument), each a reflection of its twenty-odd options, and
    /// makes two passes for `--generate-completion-script`; parsed as its own root, two builds
    /// and no passes (see `Serve.configuration`), which cut start-up by a third in a release
    /// build and by nearly half in a debug one (Benchmarks/LOG.md). Anything neither
    /// takes as a plain `serve` (help, a mistake, a failed validation) goes the whole way from
    /// the root, so every answer, message and exit status stays the root's.
    private static func parsedServe(_ arguments: [String]) -> (any ParsableCommand)? {
        guard arguments.first == Serve.configuration.commandName else { return nil }
        let rest = Array(arguments.dropFirst())
        return Serve(plainArguments: rest) ?? (try? Serve.parseAsRoot(rest)) as? Serve
    }

    /// Ends the process after `error`. A mistake in the command line is one line naming the
    /// option and where its help is, with exit status 2 (ArgumentParser's own would print the
    /// whole usage and exit 64); help, `--version` and a command's own exit status pass through.
    private static func exit(afterFailing error: any Error, arguments: [String]) -> Never {
        guard exitCode(for: error) == .validationFailure, !(error is ExitCode) else { Self.exit(withError: error) }
        // `serve --bogus`: the help to read is the subcommand's.
        let subcommand = configuration.subcommands.first { arguments.first == $0.configuration.commandName }
        let message =
            subcommand == nil
            ? Self.unknownCommand(arguments.first) ?? Self.message(for: error) : Self.message(for: error)
        let help =
            ["mockstack", subcommand?.configuration.commandName].compactMap { $0 }.joined(separator: " ") + " --help"
        printError("mockstack: \(message) (see '\(help)')")
        Self.exit(withError: ExitCode(2))
    }

    /// For a first word that is no command (`mockstack recrod`): what it is not, and the command
    /// it is one or two typos from, if one; nil for an option (`--bogus`), left to the parser.
    private static func unknownCommand(_ word: String?) -> String? {
        guard let word, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        return "'\(word)' is not a command: \(DidYouMean.hint(for: word, among: names, plural: "commands"))"
    }
}
