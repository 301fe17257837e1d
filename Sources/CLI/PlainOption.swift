import ArgumentParser

/// One of `serve`'s options as its fast path (`Serve(plainArguments:)`) reads it: its name, what
/// kind it is, and how the words given for it become the property's value. The constructors take
/// the option's ``OptionDeclaration`` (the name and default its ArgumentParser property is
/// declared with) and the property's setter, so the compiler holds each row to the declaration's
/// type; `ServeFastPathTests` holds the kinds to ArgumentParser's own description of `serve`.
struct PlainOption: Sendable {
    enum Kind: String {
        /// `--name`, no value; true when given.
        case flag
        /// `--name value` or `--name=value`; the last one given wins, as in ArgumentParser.
        case option
        /// Like `option`, every value kept in order (`--fixtures A --fixtures B`).
        case repeating
    }

    /// The long name without its dashes (`max-body-bytes`).
    let name: String
    let kind: Kind
    /// The property's type (`Int`, `String?`, `[Exposure]`, `Bool`), for the tests.
    let valueType: Any.Type
    /// Sets the property from the values given for it, in order (none: its default); false
    /// when its type refuses one, which ArgumentParser would report.
    let assign: @Sendable (inout Serve, [String]) -> Bool

    /// An option with a default (`@Option var threads: Int = 1`).
    static func option<Value: ExpressibleByArgument & Sendable>(
        _ declaration: OptionDeclaration<Value>, _ set: @escaping @Sendable (inout Serve, Value) -> Void
    ) -> PlainOption {
        let initial = declaration.initial
        return PlainOption(name: declaration.name, kind: .option, valueType: Value.self) { serve, words in
            guard let given: Value? = last(of: words) else { return false }
            set(&serve, given ?? initial)
            return true
        }
    }

    /// An optional option, nil when not given (`@Option var host: String?`).
    static func option<Value: ExpressibleByArgument & Sendable>(
        _ declaration: OptionDeclaration<Value?>, _ set: @escaping @Sendable (inout Serve, Value?) -> Void
    ) -> PlainOption {
        PlainOption(name: declaration.name, kind: .option, valueType: Value?.self) { serve, words in
            guard let given: Value? = last(of: words) else { return false }
            set(&serve, given)
            return true
        }
    }

    /// The last of `words` as a value (`.some(nil)` when none was given), each one checked as
    /// ArgumentParser checks it; nil when the type refuses one.
    private static func last<Value: ExpressibleByArgument>(of words: [String]) -> Value?? {
        var value: Value?
        for word in words {
            guard let parsed = Value(argument: word) else { return nil }
            value = parsed
        }
        return .some(value)
    }

    /// A repeatable option, empty when not given (`@Option var expose: [Exposure] = []`).
    static func repeating<Value: ExpressibleByArgument & Sendable>(
        _ declaration: OptionDeclaration<[Value]>, _ set: @escaping @Sendable (inout Serve, [Value]) -> Void
    ) -> PlainOption {
        PlainOption(name: declaration.name, kind: .repeating, valueType: [Value].self) { serve, words in
            var values: [Value] = []
            values.reserveCapacity(words.count)
            for word in words {
                guard let parsed = Value(argument: word) else { return false }
                values.append(parsed)
            }
            set(&serve, values)
            return true
        }
    }

    /// A flag, false when not given (`@Flag var watch = false`).
    static func flag(
        _ declaration: OptionDeclaration<Bool>, _ set: @escaping @Sendable (inout Serve, Bool) -> Void
    ) -> PlainOption {
        PlainOption(name: declaration.name, kind: .flag, valueType: Bool.self) { serve, words in
            set(&serve, !words.isEmpty)
            return true
        }
    }
}
