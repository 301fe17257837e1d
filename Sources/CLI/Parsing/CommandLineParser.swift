import MockStackWire

/// Reads a command's words (those after its name) into the command: `--name value`,
/// `--name=value`, flags, repeatable options, and its arguments, in any order; `--` ends the
/// options. A word that starts with `-` is never taken as a value, except after `=`. `--help`
/// or `-h` anywhere asks for help instead, whatever else is wrong.
enum CommandLineParser {
    /// What a command line asks for.
    enum Outcome<Command> {
        case help
        case run(Command)
    }

    static func parse<Command: Subcommand>(
        _ words: [String], as _: Command.Type = Command.self
    ) throws(UsageError) -> Outcome<Command> {
        let options = Command.options
        let optionsEnd = words.firstIndex(of: "--") ?? words.endIndex
        if words[..<optionsEnd].contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }

        var given = [[String]](repeating: [], count: options.count)
        var arguments: [String] = []
        var index = words.startIndex
        while index < optionsEnd {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                arguments.append(word)
                continue
            }
            var name = Substring(word)
            var attached: String?
            if let equals = word.firstIndex(of: "=") {
                attached = String(word[word.index(after: equals)...])
                name = word[..<equals]
            }
            guard let row = options.firstIndex(where: { $0.flagName == name }) else {
                throw unknownOption(String(name), among: options.map(\.flagName))
            }
            let option = options[row]
            if option.kind == .flag {
                guard attached == nil else { throw UsageError("\(option.flagName) takes no value") }
                given[row].append("")
                continue
            }
            if let attached {
                given[row].append(attached)
                continue
            }
            guard index < optionsEnd, !words[index].hasPrefix("-") || words[index] == "-" else {
                throw UsageError("missing value for '\(option.synopsis)'")
            }
            given[row].append(words[index])
            index += 1
        }
        if optionsEnd < words.endIndex { arguments += words[words.index(after: optionsEnd)...] }

        var command = Command()
        try assign(arguments, to: &command)
        for (option, words) in zip(options, given) {
            if words.isEmpty {
                guard !option.isRequired else { throw UsageError("missing expected argument '\(option.synopsis)'") }
                continue
            }
            try option.assign(&command, words)
        }
        try command.validate()
        return .run(command)
    }

    /// Sets the command's arguments, refusing any it does not take and one that is missing.
    private static func assign<Command: Subcommand>(
        _ words: [String], to command: inout Command
    ) throws(UsageError) {
        guard let arguments = Command.arguments else {
            if let first = words.first { throw UsageError("unexpected argument '\(first)'") }
            return
        }
        if !arguments.isRepeating, words.count > 1 { throw UsageError("unexpected argument '\(words[1])'") }
        guard !words.isEmpty else {
            if arguments.isRequired { throw UsageError("missing expected argument '\(arguments.synopsis)'") }
            return
        }
        arguments.assign(&command, words)
    }

    /// `unknown option '--prot': did you mean '--port'?`, or without the question when no
    /// option is one or two typos away.
    static func unknownOption(_ word: String, among names: [String]) -> UsageError {
        let near = DidYouMean.near(word, among: names)
        guard !near.isEmpty else { return UsageError("unknown option '\(word)'") }
        return UsageError("unknown option '\(word)': \(DidYouMean.question(near))")
    }
}
