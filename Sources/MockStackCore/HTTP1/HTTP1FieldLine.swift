/// A field line of the head or the trailers, `field-name ":" OWS field-value OWS` (RFC 9112 §5).
enum HTTP1FieldLine {
    /// Reads `line` (without its line end, not empty) as a field.
    ///
    /// Refused with a 400: a line starting with a space or tab (obs-fold, RFC 9112 §5.2, which a
    /// server may refuse), no colon, a name that is empty or not a token (`Host : x`), and a
    /// value with a control character other than HTAB (a NUL included, RFC 9110 §5.5). The value
    /// loses its surrounding whitespace and is decoded as UTF-8, U+FFFD for what is not.
    /// `earlier` is the field at the same place in the connection's previous request: its
    /// strings are shared when the bytes spell them again.
    static func parse(
        _ line: Span<UInt8>, reusing earlier: HTTPHeaders.Field? = nil
    ) throws(HTTP1ParseError) -> HTTP1ParsedField {
        if !line.isEmpty, HTTP1Syntax.isWhitespace(line[0]) {
            throw .malformed("a header line starts with a space or tab (obs-fold is not accepted)")
        }
        guard let colon = HTTP1Syntax.firstIndex(of: HTTP1Syntax.colon, in: line, from: 0, to: line.count) else {
            throw .malformed("the header line '\(HTTP1ParseError.excerpt(line))' has no colon")
        }
        let name = line.extracting(..<colon)
        if name.isEmpty { throw .malformed("a header has an empty name") }
        // A name most requests carry is a token already: only the others are checked.
        let nameText: String
        if let common = commonName(name) {
            nameText = common
        } else {
            guard HTTP1Syntax.isToken(name) else {
                throw .malformed(
                    """
                    the header name '\(HTTP1ParseError.excerpt(name))' has a character a token cannot (a space before \
                    the colon?)
                    """
                )
            }
            nameText = HTTP1Syntax.string(name, reusing: earlier?.name)
        }
        let untrimmed = line.extracting((colon + 1)...)
        let value = untrimmed.extracting(HTTP1Syntax.trimmedRange(untrimmed))
        if HTTP1Syntax.contains(value, where: HTTP1Syntax.isForbiddenControl) {
            throw .malformed("the value of the header '\(nameText)' has a control character")
        }
        return HTTP1ParsedField(
            field: HTTPHeaders.Field(name: nameText, value: HTTP1Syntax.string(value, reusing: earlier?.value)),
            role: HTTP1FieldRole.of(name: name, value: value))
    }

    /// The name as a literal when it is one most requests carry, spelled as usual (exactly:
    /// names are kept as sent): no decoding to check, nothing to count references of.
    static func commonName(_ name: Span<UInt8>) -> String? {
        @inline(__always) func spelled(_ text: String) -> Bool { HTTP1Syntax.equals(name, text) }
        switch name.count {
        case 4: return spelled("Host") ? "Host" : nil
        case 6: return spelled("Accept") ? "Accept" : spelled("Cookie") ? "Cookie" : nil
        case 10: return spelled("User-Agent") ? "User-Agent" : spelled("Connection") ? "Connection" : nil
        case 12: return spelled("Content-Type") ? "Content-Type" : nil
        case 13: return spelled("Authorization") ? "Authorization" : spelled("Cache-Control") ? "Cache-Control" : nil
        case 14: return spelled("Content-Length") ? "Content-Length" : nil
        case 15:
            return spelled("Accept-Encoding") ? "Accept-Encoding" : spelled("Accept-Language") ? "Accept-Language" : nil
        default: return nil
        }
    }
}

/// A field as ``HTTP1FieldLine`` read it: name and value, and what it means to the parser.
struct HTTP1ParsedField: Sendable {
    var field: HTTPHeaders.Field
    var role: HTTP1FieldRole?
}
