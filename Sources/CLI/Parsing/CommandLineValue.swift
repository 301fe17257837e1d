import Logging
import MockStackProxy
import MockStackWire

/// A value an option or argument takes from one word of the command line.
protocol CommandLineValue: Sendable {
    /// The value `word` stands for; nil when it stands for none.
    init?(commandLineWord word: String)
    /// The word that stands for this value: how help shows a default.
    var commandLineWord: String { get }
    /// What a word must be, for the message that refuses one (`a whole number`).
    static var expectation: String { get }
    /// Every word there is, for a value from a closed set; empty for the others.
    static var choices: [String] { get }
}

extension CommandLineValue {
    static var choices: [String] { [] }

    /// Why `word`, given for `option`, is refused: the words it is a typo of, else what one must be.
    static func refusal(of word: String, for option: String) -> UsageError {
        guard choices.isEmpty else {
            return UsageError("\(option) '\(word)': \(DidYouMean.hint(for: word, among: choices, plural: "values"))")
        }
        return UsageError("\(option) '\(word)': expected \(expectation)")
    }
}

/// A value from a closed set of words (`--log-format text|json`), spelled as its raw value.
protocol CommandLineChoice: CommandLineValue, RawRepresentable<String>, CaseIterable {}

extension CommandLineChoice {
    init?(commandLineWord word: String) { self.init(rawValue: word) }
    var commandLineWord: String { rawValue }
    static var expectation: String { "one of \(choices.joined(separator: ", "))" }
    static var choices: [String] { allCases.map(\.rawValue) }
}

/// An optional property takes its wrapped type's words; nil (not given) is shown as no default.
extension Optional: CommandLineValue where Wrapped: CommandLineValue {
    init?(commandLineWord word: String) {
        guard let value = Wrapped(commandLineWord: word) else { return nil }
        self = .some(value)
    }
    var commandLineWord: String { self?.commandLineWord ?? "" }
    static var expectation: String { Wrapped.expectation }
    static var choices: [String] { Wrapped.choices }
}

extension String: CommandLineValue {
    init?(commandLineWord word: String) { self = word }
    var commandLineWord: String { self }
    static var expectation: String { "a word" }
}

extension Int: CommandLineValue {
    init?(commandLineWord word: String) { self.init(word) }
    var commandLineWord: String { String(self) }
    static var expectation: String { "a whole number" }
}

extension UInt64: CommandLineValue {
    init?(commandLineWord word: String) { self.init(word) }
    var commandLineWord: String { String(self) }
    static var expectation: String { "a whole number, 0 or more" }
}

extension Logger.Level: CommandLineChoice {}

extension RecordingKind: CommandLineChoice {}
