/// The rules a whole head must follow before its body is read: `Host`, framing, the body limit
/// and `Expect`, checked in that order; what passes becomes an ``HTTP1Head``.
enum HTTP1HeadRules {
    /// The head of a request with this request line and these fields, or why it is refused.
    ///
    /// - HTTP/1.1 needs one `Host`; no request may have two (400).
    /// - Framing (400): `Content-Length`
    ///   digits only, its duplicates identical (a list such as `5,5` is refused, not read as 5);
    ///   one `Transfer-Encoding`, not in HTTP/1.0, not beside `Content-Length`, and nothing but
    ///   `chunked` (RFC 9112 §6.1 suggests 501 for an unknown coding; bad input is a 4xx here);
    ///   no body declared on HEAD or TRACE.
    /// - A declared length over the limit: 413 at once.
    /// - `Expect` other than `100-continue`: 417 (on any request, with a body or not).
    static func head(
        _ line: HTTP1RequestLine, summary: HTTP1FieldSummary, limits: HTTP1Limits
    ) throws(HTTP1ParseError) -> HTTP1Head {
        if summary.hostCount == 0, line.version == .http11 {
            throw .malformed("an HTTP/1.1 request must have a Host header")
        }
        if summary.hostCount > 1 { throw .malformed("more than one Host header") }
        let framing: BodyFraming
        switch Self.framing(line, summary, limits: limits) {
        case .success(let found): framing = found
        case .failure(let error): throw error
        }
        if summary.expectsSomethingElse { throw .unsupportedExpectation }
        let keepAlive =
            switch line.version {
            case .http11: !summary.connectionCloses
            case .http10: summary.connectionKeepsAlive && !summary.connectionCloses
            }
        return HTTP1Head(
            version: line.version, framing: framing, keepAlive: keepAlive,
            expectsContinue: summary.expectsContinue && line.version == .http11, upgrade: summary.upgrade)
    }

    private static func framing(
        _ line: HTTP1RequestLine, _ summary: HTTP1FieldSummary, limits: HTTP1Limits
    ) -> Result<BodyFraming, HTTP1ParseError> {
        if let problem = summary.framingProblem { return .failure(.malformed(problem)) }
        var framing = BodyFraming.none
        if let transferEncoding = summary.transferEncoding {
            if line.version == .http10 {
                // RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
                return .failure(.malformed("Transfer-Encoding in an HTTP/1.0 request"))
            }
            if summary.contentLength != nil {
                return .failure(.malformed("Content-Length and Transfer-Encoding together"))
            }
            guard summary.transferEncodingIsChunkedOnly else {
                return .failure(
                    .malformed(
                        "Transfer-Encoding '\(HTTP1ParseError.excerpt(transferEncoding))': only chunked is understood"))
            }
            framing = .chunked
        } else if let contentLength = summary.contentLength {
            framing = .length(Self.decimalValue(contentLength))
        }
        let declaresBody =
            switch framing {
            case .none: false
            case .length(let count): count > 0
            case .chunked: true
            }
        if declaresBody, line.method == .head || line.method == .trace {
            return .failure(.malformed("a \(line.method.rawValue) request cannot carry a body here"))
        }
        if case .length(let count) = framing, count > limits.maxBodyBytes {
            return .failure(.bodyTooLarge(limit: limits.maxBodyBytes))
        }
        return .success(framing)
    }

    /// The value of a string of decimal digits, `Int.max` when it is larger.
    private static func decimalValue(_ digits: String) -> Int {
        var value = 0
        for digit in digits.utf8 {
            let (tenfold, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = tenfold.addingReportingOverflow(Int(digit &- UInt8(ascii: "0")))
            if overflowed || carried { return .max }
            value = sum
        }
        return value
    }
}
