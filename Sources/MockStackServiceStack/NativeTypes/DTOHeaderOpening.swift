import MockStackCore

/// The lines every generated DTO file's options header opens with, before its options: the
/// opening, `Date`, the version lines, the tip naming the language's comment prefix and
/// `BaseUrl`, then a blank line (docs/servicestack.md#generated-dtos).
enum DTOHeaderOpening {
    /// - Parameters:
    ///   - opening: `/* Options:` or `""" Options:`;
    ///   - versions: `Version: …`, after `SwiftVersion: …` in a Swift file;
    ///   - commentPrefix: what comments an option out (`//`, `#`);
    ///   - baseURL: where the file was fetched from, unless the query's `BaseUrl` says otherwise;
    ///   - oneLine: how the language keeps a value on the header's line.
    static func lines(
        _ opening: String, date: DateTimeValue, versions: [String], commentPrefix: String,
        options: NativeTypesOptions, baseURL: String, oneLine: (String) -> String
    ) -> [String] {
        let base = options.isGiven("BaseUrl") ? options.text("BaseUrl") ?? "" : baseURL
        return [opening, "Date: \(SwiftHeader.dateText(date))"] + versions + [
            "Tip: To override a DTO option, remove \"\(commentPrefix)\" prefix before updating",
            "BaseUrl: \(oneLine(base))",
            "",
        ]
    }

    /// The option lines, in `names`' order, each behind `commentPrefix` unless the query gave it
    /// a value: yes/no options as `True`/`False`, `IncludeTypes`, `ExcludeTypes` and
    /// `TreatTypesAsStrings` joined by commas, `DefaultImports` as the file imports them
    /// (`imports`) or as given, `AddImplicitVersion` as a number, a value the generator decided
    /// (`shown`, such as Java's default `GlobalNamespace`), anything else as given.
    static func optionLines(
        _ names: [String], flags: Set<String>, imports: [String]? = nil, shown: [String: String] = [:],
        commentPrefix: String, options: NativeTypesOptions, oneLine: (String) -> String
    ) -> [String] {
        names.map { name in
            let value: String
            switch name {
            case _ where flags.contains(name): value = options.flag(name) ? "True" : "False"
            case _ where shown[name] != nil: value = shown[name] ?? ""
            case "IncludeTypes", "ExcludeTypes", "TreatTypesAsStrings":
                value = options.list(name).joined(separator: ",")
            case "DefaultImports": value = (imports ?? options.list(name)).joined(separator: ",")
            case "AddImplicitVersion": value = options.text(name).flatMap { Int($0) }.map(String.init) ?? ""
            default: value = options.isGiven(name) ? options.text(name) ?? "" : ""
            }
            return (options.hasValue(name) ? "" : commentPrefix) + name + ": " + oneLine(value)
        }
    }
}
