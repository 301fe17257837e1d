/// Text from metadata or a query put into a Java or Kotlin file, kept to names, string literals
/// and comments. Java reads `\uXXXX` escapes before anything else, even inside a comment or a
/// string, so a comment must not carry one (`\u002a/` would close it); Kotlin's comments nest,
/// so one must not open another either.
enum JavaText {
    /// A comment's or the header's text: on one line, unable to close its comment or open another.
    static func comment(_ text: String) -> String {
        // Most text has nothing to break: no slash, backslash or line break (whose bytes, or
        // lead bytes, are these).
        if !text.utf8.contains(where: {
            $0 == 0x2F || $0 == 0x5C || ($0 >= 0x0A && $0 <= 0x0D) || $0 == 0xC2 || $0 == 0xE2
        }) {
            return text
        }
        var result = ""
        var previous: Character?
        for original in text where original != "\r" {
            let character: Character = original.isNewline ? " " : original
            let breaks =
                (character == "/" && previous == "*") || (character == "*" && previous == "/")
                || (character == "u" && previous == "\\")
            if breaks { result.append(" ") }
            result.append(character)
            previous = character
        }
        return result
    }

    /// A string literal, JSON-escaped; a backslash is doubled, so no `\u` in it is read as an escape.
    static func literal(_ text: String) -> String { ScriptAnnotations.quoted(text) }

    /// `name` or `a.b.c`, optionally ending in `.*`: what may follow `package` or `import`.
    static func isImportable(_ text: String) -> Bool {
        let name = text.hasSuffix(".*") ? String(text.dropLast(2)) : text
        return !name.isEmpty
            && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
                ScriptText.isASCIIIdentifier(String($0))
            }
    }
}
