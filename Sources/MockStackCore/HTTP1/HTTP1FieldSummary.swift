/// What a head's fields say about the message and the connection, noted field by field as the
/// parser reads them; ``HTTP1HeadRules`` then judges it.
struct HTTP1FieldSummary: Sendable {
    var hostCount = 0
    /// The first `Content-Length` value.
    var contentLength: String?
    /// The only `Transfer-Encoding` value (a second is a ``framingProblem``).
    var transferEncoding: String?
    /// Whether that value is exactly one `chunked`.
    var transferEncodingIsChunkedOnly = false
    /// The first of the framing problems refused field by field (a
    /// `Content-Length` that is not digits or disagrees with another, a second
    /// `Transfer-Encoding`), in field order.
    var framingProblem: String?
    var connectionCloses = false
    var connectionKeepsAlive = false
    var connectionUpgrades = false
    /// Whether `Expect` lists `100-continue`.
    var expectsContinue = false
    /// Whether `Expect` lists anything else.
    var expectsSomethingElse = false
    /// The `Upgrade` values, in order.
    var upgradeValues: [String] = []

    /// The `Upgrade` values joined with ", " when `Connection` lists `upgrade`; else nil.
    var upgrade: String? {
        connectionUpgrades && !upgradeValues.isEmpty ? upgradeValues.joined(separator: ", ") : nil
    }

    /// Back to a summary of no fields. Most heads hold no framing, `Upgrade` or problem text,
    /// and then only the flags are cleared (a new summary would release four empty slots).
    mutating func clear() {
        if contentLength != nil || transferEncoding != nil || framingProblem != nil || !upgradeValues.isEmpty {
            self = HTTP1FieldSummary()
            return
        }
        hostCount = 0
        transferEncodingIsChunkedOnly = false
        connectionCloses = false
        connectionKeepsAlive = false
        connectionUpgrades = false
        expectsContinue = false
        expectsSomethingElse = false
    }

    mutating func note(_ parsed: HTTP1ParsedField) {
        guard let role = parsed.role else { return }
        switch role {
        case .host:
            hostCount += 1
        case .contentLength:
            noteContentLength(parsed.field.value)
        case .transferEncoding(let isChunkedOnly):
            if transferEncoding != nil {
                // Two fields could hide a chunked the first lacks from a parser reading one.
                recordFramingProblem("more than one Transfer-Encoding header")
            } else {
                transferEncoding = parsed.field.value
                transferEncodingIsChunkedOnly = isChunkedOnly
            }
        case .connection(let closes, let keepsAlive, let upgrades):
            connectionCloses = connectionCloses || closes
            connectionKeepsAlive = connectionKeepsAlive || keepsAlive
            connectionUpgrades = connectionUpgrades || upgrades
        case .expect(let continues, let otherwise):
            expectsContinue = expectsContinue || continues
            expectsSomethingElse = expectsSomethingElse || otherwise
        case .upgrade:
            upgradeValues.append(parsed.field.value)
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
                recordFramingProblem(
                    """
                    two Content-Length headers disagree (\(HTTP1ParseError.excerpt(contentLength)), \
                    \(HTTP1ParseError.excerpt(value)))
                    """
                )
            }
        } else {
            contentLength = value
        }
    }

    private mutating func recordFramingProblem(_ problem: String) {
        if framingProblem == nil { framingProblem = problem }
    }
}
