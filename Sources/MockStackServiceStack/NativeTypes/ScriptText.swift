/// Text from metadata or a query put into generated source: kept to names, string literals
/// and comments, so that neither a fixture nor a query can write code into a file.
enum ScriptText {
    /// Letters, digits and `_` only (a leading digit gets a `_`). An ASCII name already made of
    /// those, as every metadata name is, comes back as it is, checked over its bytes.
    static func identifier(_ name: String) -> String {
        if isASCIIIdentifier(name) { return name }
        let text = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        return text.first?.isNumber == true ? "_" + text : text
    }

    /// ASCII letters, digits and `_`, not empty, not beginning with a digit.
    static func isASCIIIdentifier(_ name: String) -> Bool {
        var first = true
        for byte in name.utf8 {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            guard isLetter || byte == UInt8(ascii: "_") || (isDigit && !first) else { return false }
            first = false
        }
        return !first
    }

    /// A single-quoted string literal (Python, TypeScript, PHP), on one line.
    static func literal(_ text: String) -> String {
        let text = ScriptAnnotations.oneLine(text)
        // Most literals are names and paths, with nothing to escape.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }) {
            return "'" + text + "'"
        }
        var result = "'"
        for character in text {
            if character == "'" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "'"
    }

    /// Whether an operation's members are AutoQuery filters, which stay unset: collections are
    /// not initialised in a `QueryDb` or `QueryData` request.
    static func isAutoQuery(_ type: MetadataType) -> Bool {
        type.inherits.map { ["QueryDb", "QueryData"].contains(TypeReference.stripArity($0.name)) } ?? false
    }
}

extension String {
    /// `"""` inside a docstring would end it.
    func replacingTripleQuotes() -> String {
        var result = ""
        var quotes = 0
        for character in self {
            quotes = character == "\"" ? quotes + 1 : 0
            if quotes == 3 {
                result.append("\\")
                quotes = 1
            }
            result.append(character)
        }
        return result
    }
}
