/// One option of a command (`--port 0`, `--watch`), as data: its name, what it takes, its help,
/// and how the words given for it set the command's property. The constructors take the
/// property's key path, so a row cannot set a property of another type than it parses, and its
/// default (shown in help) is the property's own initial value.
struct CommandOption<Command>: Sendable {
    /// The long name without its dashes (`max-body-bytes`).
    let name: String
    let kind: OptionKind
    /// What help calls the value (`<port>`); the name when not given.
    let valueName: String
    let help: String
    /// The command refuses to run without it.
    let isRequired: Bool
    /// The words a value may be, for a value from a closed set (shown in help).
    let choices: [String]
    /// The property's value in `command`, as a word, when it is worth showing as a default.
    let shownDefault: @Sendable (Command) -> String?
    /// Sets the property from the words given for the option, in order; called only when the
    /// option was given.
    let assign: @Sendable (inout Command, [String]) throws(UsageError) -> Void

    /// `--name` as help and messages show it.
    var flagName: String { "--" + name }

    /// `--name <value>` (`--name` for a flag).
    var synopsis: String { kind == .flag ? flagName : "\(flagName) <\(valueName)>" }

    /// An option with a value, the property's initial value its default (`var threads = 1`; for
    /// `var host: String?`, nil and no default shown).
    /// - Parameter required: the property's initial value is a placeholder, never used.
    static func value<Value: CommandLineValue>(
        _ name: String, _ property: any WritableKeyPath<Command, Value> & Sendable, valueName: String? = nil,
        required: Bool = false, help: String
    ) -> Self {
        Self(
            name: name, kind: .single, valueName: valueName ?? name, help: help, isRequired: required,
            choices: Value.choices, shownDefault: { required ? nil : $0[keyPath: property].commandLineWord }
        ) { command, words throws(UsageError) in
            command[keyPath: property] = try parsed(words, as: Value.self, for: "--" + name).last!
        }
    }

    /// A repeatable option, every value kept in order (`var expose: [Exposure] = []`).
    static func repeating<Value: CommandLineValue>(
        _ name: String, _ property: any WritableKeyPath<Command, [Value]> & Sendable, valueName: String? = nil,
        help: String
    ) -> Self {
        Self(
            name: name, kind: .repeating, valueName: valueName ?? name, help: help, isRequired: false,
            choices: Value.choices, shownDefault: { _ in nil }
        ) { command, words throws(UsageError) in
            command[keyPath: property] = try parsed(words, as: Value.self, for: "--" + name)
        }
    }

    /// A flag, false when not given (`var watch = false`).
    static func flag(_ name: String, _ property: any WritableKeyPath<Command, Bool> & Sendable, help: String) -> Self {
        Self(
            name: name, kind: .flag, valueName: name, help: help, isRequired: false, choices: [],
            shownDefault: { _ in nil }
        ) { command, _ in
            command[keyPath: property] = true
        }
    }

    /// This option of a group of options (`ServerOptions`), as an option of the command that
    /// holds the group at `group`.
    func lifted<Outer>(into group: any WritableKeyPath<Outer, Command> & Sendable) -> CommandOption<Outer> {
        let assign = self.assign
        let shownDefault = self.shownDefault
        return CommandOption<Outer>(
            name: name, kind: kind, valueName: valueName, help: help, isRequired: isRequired, choices: choices,
            shownDefault: { shownDefault($0[keyPath: group]) }
        ) { outer, words throws(UsageError) in
            try assign(&outer[keyPath: group], words)
        }
    }
}

/// What a ``CommandOption`` takes.
enum OptionKind: Sendable {
    /// `--name`, no value: true when given.
    case flag
    /// `--name value` or `--name=value`; the last one given wins.
    case single
    /// Like `single`, every value kept in order (`--fixtures A --fixtures B`).
    case repeating
}

/// Each of `words` as a `Value`; the first one its type refuses ends the parse.
private func parsed<Value: CommandLineValue>(
    _ words: [String], as: Value.Type, for option: String
) throws(UsageError) -> [Value] {
    var values: [Value] = []
    values.reserveCapacity(words.count)
    for word in words {
        guard let value = Value(commandLineWord: word) else { throw Value.refusal(of: word, for: option) }
        values.append(value)
    }
    return values
}
