/// A chunk size line of a chunked body, `chunk-size [ BWS ";" chunk-ext ]` (RFC 9112 §7.1).
enum HTTP1ChunkSizeLine {
    /// The most hexadecimal digits a chunk size may have (leading zeros included).
    static let maxDigits = 16

    /// The size `line` (without its line end, not empty) declares, or why it is refused.
    ///
    /// The size is hexadecimal digits only: `-5`, `0x5`, ` 5` and a line with no digits are 400s.
    /// It is checked digit by digit against `budget`, what the body limit still allows: a size
    /// past it is a 413 as soon as its digits say so (so `ffffffffffffffffffff` is a 413, and
    /// no size overflows); more than 16 digits of a size within it (leading zeros) is a 400.
    /// Spaces and tabs may follow the size; then only `;` and extensions, which are ignored
    /// (not parsed: quoted strings need no care) but must hold no control character but HTAB.
    static func size(_ line: Span<UInt8>, budget: Int, maxBodyBytes: Int) -> Result<Int, HTTP1ParseError> {
        var size = 0
        var index = 0
        while index < line.count, let digit = HTTP1Syntax.hexValue(line[index]) {
            let (sixteenfold, overflowed) = size.multipliedReportingOverflow(by: 16)
            size = sixteenfold | digit
            if overflowed || size > budget { return .failure(.bodyTooLarge(limit: maxBodyBytes)) }
            index += 1
            if index > maxDigits {
                return .failure(.malformedChunkedBody("a chunk size has more than \(maxDigits) hexadecimal digits"))
            }
        }
        if index == 0 {
            return .failure(
                .malformedChunkedBody(
                    "a chunk size must be hexadecimal digits, found '\(HTTP1ParseError.excerpt(line))'"))
        }
        while index < line.count, HTTP1Syntax.isWhitespace(line[index]) { index += 1 }
        guard index < line.count else { return .success(size) }
        guard line[index] == UInt8(ascii: ";") else {
            let rest = line.extracting(index...)
            return .failure(.malformedChunkedBody("unexpected '\(HTTP1ParseError.excerpt(rest))' after the chunk size"))
        }
        if HTTP1Syntax.contains(line.extracting(index...), where: HTTP1Syntax.isForbiddenControl) {
            return .failure(.malformedChunkedBody("a chunk extension has a control character"))
        }
        return .success(size)
    }
}
