/// One of `mockstack`'s commands (`serve`, `codegen`, …): its help and its options as data, a
/// value the parser fills (``CommandLineParser``), and what it does.
protocol Subcommand {
    /// A command with every property at its default, before the command line is read.
    init()

    /// The word that names it (`serve`).
    static var name: String { get }
    /// One line for the command list and the top of its help.
    static var abstract: String { get }
    /// Paragraphs for its help, after the abstract; empty for none.
    static var discussion: String { get }
    static var options: [CommandOption<Self>] { get }
    /// The words that are no option, if it takes any. Declared by every command, without a
    /// default: a command's `CommandArguments<Self>` (not optional) would not witness this, and
    /// a default would quietly stand in for it.
    static var arguments: CommandArguments<Self>? { get }

    /// Refuses a combination of values the options alone cannot, after parsing.
    func validate() throws(UsageError)

    /// Does the command's work. A ``UsageError`` ends it as a mistake in the command line would,
    /// an ``ExitStatus`` with that status.
    func run() throws
}

extension Subcommand {
    static var discussion: String { "" }
    func validate() throws(UsageError) {}
}
