/// What a head's fields say about the message and the connection, gathered in one pass over
/// them; ``HTTP1HeadRules`` then judges it.
struct HTTP1FieldSummary {
    var hostCount = 0
    /// The first `Content-Length` value.
    var contentLength: String?
    /// The only `Transfer-Encoding` value (a second is a ``framingProblem``).
    var transferEncoding: String?
    /// The first of the framing problems RequestFraming refused before (a `Content-Length` that
    /// is not digits or disagrees with another, a second `Transfer-Encoding`), in field order.
    var framingProblem: String?
    var connectionCloses = false
    var connectionKeepsAlive = false
    var connectionUpgrades = false
    /// Whether `Expect` lists `100-continue`.
    var expectsContinue = false
    /// Whether `Expect` lists anything else.
    var expectsSomethingElse = false
    var upgradeValues: [String] = []

    init(_ fields: [HTTPHeaders.Field]) {
        for field in fields { note(field) }
    }

    private mutating func note(_ field: HTTPHeaders.Field) {
        let name = field.name
        if name.equalsIgnoringASCIICase("Host") {
            hostCount += 1
        } else if name.equalsIgnoringASCIICase("Content-Length") {
            noteContentLength(field.value)
        } else if name.equalsIgnoringASCIICase("Transfer-Encoding") {
            if transferEncoding != nil {
                // Two fields could hide a chunked the first lacks from a parser reading one.
                recordFramingProblem("more than one Transfer-Encoding header")
            } else {
                transferEncoding = field.value
            }
        } else if name.equalsIgnoringASCIICase("Connection") {
            for option in Self.listMembers(field.value) {
                if option.equalsIgnoringASCIICase("close") { connectionCloses = true }
                if option.equalsIgnoringASCIICase("keep-alive") { connectionKeepsAlive = true }
                if option.equalsIgnoringASCIICase("upgrade") { connectionUpgrades = true }
            }
        } else if name.equalsIgnoringASCIICase("Expect") {
            for expectation in Self.listMembers(field.value) {
                if expectation.equalsIgnoringASCIICase("100-continue") {
                    expectsContinue = true
                } else {
                    expectsSomethingElse = true
                }
            }
        } else if name.equalsIgnoringASCIICase("Upgrade") {
            upgradeValues.append(field.value)
        }
    }

    /// Digits only (`+5`, `5,5` and `0x5` are not), and the same digits in every field.
    private mutating func noteContentLength(_ value: String) {
        guard !value.isEmpty, value.utf8.allSatisfy(HTTP1Syntax.isDigit) else {
            recordFramingProblem("Content-Length must be digits, found '\(HTTP1ParseError.excerpt(value))'")
            return
        }
        if let contentLength {
            if contentLength != value {
                recordFramingProblem("two Content-Length headers disagree (\(HTTP1ParseError.excerpt(contentLength)), \(HTTP1ParseError.excerpt(value)))")
            }
        } else {
            contentLength = value
        }
    }

    private mutating func recordFramingProblem(_ problem: String) {
        if framingProblem == nil { framingProblem = problem }
    }

    /// The members of a comma-separated list value (RFC 9110 §5.6.1), without whitespace;
    /// empty members are skipped.
    static func listMembers(_ value: String) -> [Substring] {
        value.split(separator: ",").map { $0.trimmingASCIISpace() }.filter { !$0.isEmpty }
    }
}
