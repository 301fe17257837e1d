import MockStackCore

/// What evhttp 2.1 lets through but HTTP/1.1 does not (RFC 9112 §5.1, §6), all of it the stuff of
/// request smuggling: when evhttp and a client disagree on where a request ends, the rest of
/// its bytes are read as the next request. Checked on every request before any responder;
/// a problem is answered in the transport's JSON and the connection closed.
enum RequestFraming {
    /// The problem with a request's framing (a 400 message), or nil when it is sound.
    /// - Parameter method: evhttp reads no body for HEAD, TRACE or a method it does not know
    ///   (http.c, `evhttp_method_may_have_body`), so one declared there would be misread.
    static func problem(method: HTTPMethod, headers: HTTPHeaders) -> String? {
        var length: String?
        var transferEncoding: String?
        for field in headers {
            if field.name.isEmpty { return "a header has an empty name" }
            if !field.name.utf8.allSatisfy(isTokenByte) {
                return "the header name '\(field.name)' has a character a token cannot (a space before the colon?)"
            }
            if field.name.equalsIgnoringASCIICase("Content-Length") {
                // evhttp reads `+5` as 5 and takes the first of two.
                guard !field.value.isEmpty, field.value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                    return "Content-Length must be digits, found '\(field.value)'"
                }
                if let length, length != field.value {
                    return "two Content-Length headers disagree (\(length), \(field.value))"
                }
                length = field.value
            } else if field.name.equalsIgnoringASCIICase("Transfer-Encoding") {
                // evhttp reads only the first; a second could carry the chunked the first lacks.
                if transferEncoding != nil { return "more than one Transfer-Encoding header" }
                transferEncoding = field.value
            }
        }
        if let transferEncoding {
            // Upstream evhttp takes chunked and ignores the length (some patched builds refuse).
            if length != nil { return "Content-Length and Transfer-Encoding together" }
            // Chunked must come last (RFC 9112 §6.3), and evhttp undoes nothing else. RFC 9112 §6.1
            // suggests 501 for a coding a server does not implement; bad input here is a 4xx.
            let codings = transferEncoding.split(separator: ",").map { $0.trimmingASCIISpace() }
            guard codings.count == 1, codings[0].equalsIgnoringASCIICase("chunked") else {
                return "Transfer-Encoding '\(transferEncoding)': only chunked is understood"
            }
        }
        let declaresBody = transferEncoding != nil || (length.map { $0.contains { $0 != "0" } } ?? false)
        if declaresBody, method == .head || method == .trace || method == .unknown {
            let verb = method == .unknown ? "a request with this method" : "a \(method.rawValue) request"
            return "\(verb) cannot carry a body here"
        }
        return nil
    }

    /// Whether `byte` is one of RFC 9110 §5.6.2's `tchar`s, the bytes a header name may hold.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
