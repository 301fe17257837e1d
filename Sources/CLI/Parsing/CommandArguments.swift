/// The words of a command that are no option (`codegen swift`, `validate DIR…`): what help
/// calls them, and how they set the command's property.
struct CommandArguments<Command>: Sendable {
    /// What help calls one of them (`<language>`).
    let valueName: String
    let help: String
    /// More than one may be given.
    let isRepeating: Bool
    /// The command refuses to run without one.
    let isRequired: Bool
    /// Sets the property from the words given, in order; called only when some were given.
    let assign: @Sendable (inout Command, [String]) -> Void

    /// `<language>`, or `[<folder> ...]` for optional repeating ones.
    var synopsis: String { isRequired ? "<\(valueName)>" : "[<\(valueName)> ...]" }

    /// Exactly one word, required.
    static func one(
        _ property: any WritableKeyPath<Command, String> & Sendable, valueName: String, help: String
    ) -> Self {
        Self(valueName: valueName, help: help, isRepeating: false, isRequired: true) { command, words in
            command[keyPath: property] = words[0]
        }
    }

    /// Any number of words, none required.
    static func many(
        _ property: any WritableKeyPath<Command, [String]> & Sendable, valueName: String, help: String
    ) -> Self {
        Self(valueName: valueName, help: help, isRepeating: true, isRequired: false) { command, words in
            command[keyPath: property] = words
        }
    }

    /// These arguments of a group (`FixtureFoldersArguments`), as the arguments of the command
    /// that holds the group at `group`.
    func lifted<Outer>(into group: any WritableKeyPath<Outer, Command> & Sendable) -> CommandArguments<Outer> {
        let assign = self.assign
        return CommandArguments<Outer>(
            valueName: valueName, help: help, isRepeating: isRepeating, isRequired: isRequired
        ) { outer, words in
            assign(&outer[keyPath: group], words)
        }
    }
}
