/// ServiceStack's `SafeInput`: what it writes into error messages and reason phrases of a value
/// the client sent. Its pattern keeps word characters, white space, `.`, `,`, `+`, `/` and the
/// range `@` to `\` (so `[` stays, while `-` and `'` go).
enum SafeInput {
    static func filter(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { scalar in
                    scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
                        || scalar.properties.isWhitespace || ".,+/".unicodeScalars.contains(scalar)
                        || ("@"..."\\").contains(scalar)
                }))
    }
}
