import MockStackCore

/// Text from metadata or a query put into a `/types/php` file: kept to names, string literals and
/// comments, so that neither a fixture nor a query can write PHP.
enum PhpText {
    /// A single-quoted PHP string, on one line: `'` and `\` escaped, as nothing else is read in one.
    static func literal(_ text: String) -> String { ScriptText.literal(text) }

    /// A double-quoted PHP string, on one line: besides `"` and `\`, `$` is escaped, which
    /// would otherwise name a variable to put in.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for character in ScriptAnnotations.oneLine(text) {
            if character == "\"" || character == "\\" || character == "$" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// A `//` comment's text: `?>` would leave PHP for the rest of the line, so it is broken up.
    static func lineComment(_ text: String) -> String { text.separating("?", ">") }

    /// Text inside a `/** … */` comment: on one line, with no `*/` to end it.
    static func blockComment(_ text: String) -> String { ScriptAnnotations.oneLine(text).replacingCommentEnds() }

    /// A namespace name: identifiers joined by `\`, nil for anything else.
    static func qualifiedName(_ text: String) -> String? {
        let parts = text.split(separator: "\\", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ ScriptText.isASCIIIdentifier(String($0)) }) else { return nil }
        return text
    }

    /// `use Name;` or `use Name\{A,B};` for a `DefaultImports` entry made of names; nil for any other.
    static func useLine(_ entry: String) -> String? {
        let entry = String(entry.trimmingASCIISpace())
        guard let brace = entry.firstIndex(of: "{") else { return qualifiedName(String(entry)).map { "use \($0);" } }
        let prefix = entry[..<brace]
        let names = entry[entry.index(after: brace)...]
        guard prefix.hasSuffix("\\"), names.hasSuffix("}"), qualifiedName(String(prefix.dropLast())) != nil else {
            return nil
        }
        let list = names.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard list.allSatisfy({ ScriptText.isASCIIIdentifier(String($0)) }) else { return nil }
        return "use \(entry);"
    }
}
