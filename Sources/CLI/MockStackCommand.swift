import MockStack
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mockstack`: a mock ServiceStack / FeathersJS server for client-library tests.
///
/// The command line is read by the CLI's own parser (Parsing/): each command declares its
/// options as data, and one pass reads them with no reflection. A client package that spawns
/// the server compiles this executable in its first build, so it depends on nothing a parser
/// library would add (Benchmarks/LOG.md, "A client's first build").
@main
enum MockStackCommand {
    static let abstract =
        "A fast, offline, deterministic mock ServiceStack / FeathersJS server for client-library tests."

    /// Every command, in the order help lists them.
    static var commands: [any Subcommand.Type] {
        [Serve.self, Record.self, Validate.self, Routes.self, Health.self, Codegen.self, Stubs.self]
    }

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
            exit(2)
        }
        exit(status(running: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the command `arguments` name (help and `--version` included) to its end; its exit
    /// status. A mistake in the command line is one line on stderr naming it and where the help
    /// to read is, with exit status 2.
    static func status(running arguments: [String]) -> Int32 {
        guard let first = arguments.first, first != "--help", first != "-h" else {
            return printed(HelpText.program("mockstack", abstract: abstract, commands: commands))
        }
        if first == "--version" { return printed(MockStackVersion.description(commit: buildCommit) + "\n") }
        if first == "help", arguments.count > 1 {
            guard let command = command(named: arguments[1]) else { return failed(unknownCommand(arguments[1])) }
            return printed(HelpText.command(command, in: "mockstack"))
        }
        if first == "help" { return status(running: []) }
        if first.hasPrefix("-") {
            return failed(CommandLineParser.unknownOption(first, among: ["--help", "--version"]))
        }
        guard let command = command(named: first) else { return failed(unknownCommand(first)) }
        return status(running: command, Array(arguments.dropFirst()))
    }

    private static func status<Command: Subcommand>(running _: Command.Type, _ words: [String]) -> Int32 {
        let help = "mockstack \(Command.name) --help"
        do {
            switch try CommandLineParser.parse(words, as: Command.self) {
            case .help: return printed(HelpText.command(Command.self, in: "mockstack"))
            case .run(let command): try command.run()
            }
            return 0
        } catch let error as UsageError {
            return failed(error, help: help)
        } catch let status as ExitStatus {
            return status.code
        } catch {
            printError("mockstack: \(error)")
            return 1
        }
    }

    private static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.name == name }
    }

    /// For a first word that is no command (`mockstack recrod`): what it is not, and the command
    /// it is one or two typos from, if one.
    private static func unknownCommand(_ word: String) -> UsageError {
        let hint = DidYouMean.hint(for: word, among: commands.map { $0.name }, plural: "commands")
        return UsageError("'\(word)' is not a command: \(hint)")
    }

    private static func printed(_ text: String) -> Int32 {
        StandardStream.output.write(text)
        return 0
    }

    private static func failed(_ error: UsageError, help: String = "mockstack --help") -> Int32 {
        printError("mockstack: \(error.message) (see '\(help)')")
        return 2
    }
}
