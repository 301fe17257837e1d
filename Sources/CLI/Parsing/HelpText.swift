/// Help as `--help` prints it: prose filled to the width by whole words, options in a table
/// whose descriptions start at one column.
enum HelpText {
    /// The widest line help prints.
    static let width = 79
    /// Where an option's description starts.
    static let descriptionColumn = 26

    /// `mockstack COMMAND --help`.
    static func command<Command: Subcommand>(_: Command.Type, in program: String) -> String {
        let options = Command.options
        var usage = ["\(program) \(Command.name)"]
        usage += options.filter(\.isRequired).map(\.synopsis)
        if let arguments = Command.arguments { usage.append(arguments.synopsis) }
        if options.contains(where: { !$0.isRequired }) { usage.append("[<options>]") }

        var lines = filled("OVERVIEW: " + Command.abstract)
        if !Command.discussion.isEmpty { lines += [""] + filled(Command.discussion) }
        lines += ["", "USAGE: " + usage.joined(separator: " ")]
        if let arguments = Command.arguments {
            lines += ["", "ARGUMENTS:"] + row(arguments.synopsis, arguments.help)
        }
        lines += ["", "OPTIONS:"]
        let defaults = Command()
        for option in options {
            var help = option.help
            if !option.choices.isEmpty { help += " (values: \(option.choices.joined(separator: ", ")))" }
            if let shown = option.shownDefault(defaults), !shown.isEmpty { help += " [default: \(shown)]" }
            lines += row(option.synopsis, help)
        }
        lines += row("-h, --help", "Show help information.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `mockstack --help`: what the program is, and its commands.
    static func program(_ name: String, abstract: String, commands: [any Subcommand.Type]) -> String {
        var lines = filled("OVERVIEW: " + abstract)
        lines += ["", "USAGE: \(name) <command> [<options>]", "", "OPTIONS:"]
        lines += row("--version", "Show the version.") + row("-h, --help", "Show help information.")
        lines += ["", "COMMANDS:"]
        for command in commands { lines += row(command.name, command.abstract) }
        lines += ["", "  See '\(name) help <command>' for a command's help."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One entry of a table: the term indented by two, its description from
    /// ``descriptionColumn`` (on the next line when the term reaches it).
    static func row(_ term: String, _ description: String) -> [String] {
        let indent = String(repeating: " ", count: descriptionColumn)
        let termLine = "  " + term
        var described = filled(description, width: width - descriptionColumn).map { indent + $0 }
        guard termLine.count < descriptionColumn - 1 else { return [termLine] + described }
        let first = described.isEmpty ? "" : described.removeFirst().dropFirst(descriptionColumn)
        return [termLine.padding(toLength: descriptionColumn) + first] + described
    }

    /// `text` filled to `width` by whole words, line by line: each line of `text` is a
    /// paragraph (an empty one stays empty). A word longer than the width gets a line of its own.
    static func filled(_ text: String, width: Int = width) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}

extension String {
    /// This string with spaces after it up to `length` characters.
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
