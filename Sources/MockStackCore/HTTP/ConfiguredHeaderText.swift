/// What a configured answer's header field — a stub's, a fixture's, a recorded answer's — may
/// hold: a name that is a token, and a value of visible ASCII, spaces and tabs (RFC 9110 §5.5).
///
/// Checked when the answer is made, so its author hears which field is wrong: sent, a CR or LF
/// would split the head (the head drops such a field), a NUL or other control byte reaches the
/// client raw, and bytes past ASCII (obs-text) are read differently by each client library.
public enum ConfiguredHeaderText {
    /// Why the field `name: value` may not be configured, or nil when it may.
    public static func problem(name: String, value: String) -> String? {
        if name.isEmpty || !name.utf8.allSatisfy(HTTP1Syntax.isTokenByte) {
            return "'\(name)' is not a header name (a token: letters, digits and !#$%&'*+-.^_`|~)"
        }
        for scalar in value.unicodeScalars {
            if scalar.value < 0x80, !HTTP1Syntax.isForbiddenControl(UInt8(scalar.value)) { continue }
            let shown = "U+" + String(zeroPadded: scalar.value, radix: 16, width: 4).uppercased()
            let kind = scalar.value < 0x80 ? "a control character" : "a character outside ASCII"
            return
                "the value of \(name) holds \(kind) (\(shown)); a header value may hold visible ASCII, spaces and tabs"
        }
        return nil
    }
}
