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
}
