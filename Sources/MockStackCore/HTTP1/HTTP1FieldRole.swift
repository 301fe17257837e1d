/// What a field means to the parser, read from its bytes as the field is parsed, so that the
/// head's rules need not look at names and list values again as strings.
enum HTTP1FieldRole: Sendable, Equatable {
    case host
    case contentLength
    /// `Transfer-Encoding`, and whether its list is exactly one `chunked` (any case).
    case transferEncoding(isChunkedOnly: Bool)
    /// `Connection`, and which of the options the parser knows its list holds.
    case connection(closes: Bool, keepsAlive: Bool, upgrades: Bool)
    /// `Expect`, and whether its list holds `100-continue`, and anything else.
    case expect(continues: Bool, otherwise: Bool)
    case upgrade

    /// The role of the field with this name and (whitespace-trimmed) value, or nil for the
    /// fields the parser leaves to the apps.
    static func of(name: Span<UInt8>, value: Span<UInt8>) -> Self? {
        switch name.count {
        case 4 where HTTP1Syntax.equalsIgnoringCase(name, "host"):
            return .host
        case 6 where HTTP1Syntax.equalsIgnoringCase(name, "expect"):
            var continues = false
            var otherwise = false
            HTTP1Syntax.forEachListMember(value) { member in
                if HTTP1Syntax.equalsIgnoringCase(member, "100-continue") { continues = true } else { otherwise = true }
            }
            return .expect(continues: continues, otherwise: otherwise)
        case 7 where HTTP1Syntax.equalsIgnoringCase(name, "upgrade"):
            return .upgrade
        case 10 where HTTP1Syntax.equalsIgnoringCase(name, "connection"):
            var closes = false
            var keepsAlive = false
            var upgrades = false
            HTTP1Syntax.forEachListMember(value) { option in
                if HTTP1Syntax.equalsIgnoringCase(option, "close") { closes = true }
                if HTTP1Syntax.equalsIgnoringCase(option, "keep-alive") { keepsAlive = true }
                if HTTP1Syntax.equalsIgnoringCase(option, "upgrade") { upgrades = true }
            }
            return .connection(closes: closes, keepsAlive: keepsAlive, upgrades: upgrades)
        case 14 where HTTP1Syntax.equalsIgnoringCase(name, "content-length"):
            return .contentLength
        case 17 where HTTP1Syntax.equalsIgnoringCase(name, "transfer-encoding"):
            var codings = 0
            var chunked = false
            HTTP1Syntax.forEachListMember(value) { coding in
                codings += 1
                chunked = HTTP1Syntax.equalsIgnoringCase(coding, "chunked")
            }
            return .transferEncoding(isChunkedOnly: codings == 1 && chunked)
        default:
            return nil
        }
    }
}
