/// ServiceStack's `HtmlEncode`: .NET's `WebUtility.HtmlEncode`, then `′` as `&prime;`. Error
/// messages holding `<script` and the test host's chat messages are encoded with it.
enum HTMLEncoding {
    static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{2032}": out += "&prime;"
            // WebUtility writes Latin-1's upper half and characters beyond the BMP as numbers.
            case "\u{A0}"..."\u{FF}", "\u{10000}"...: out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
