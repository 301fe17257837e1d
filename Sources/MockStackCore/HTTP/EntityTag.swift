/// A strong entity tag computed from response bytes, and `If-None-Match` evaluation.
public struct EntityTag: Sendable, Equatable, CustomStringConvertible {
    /// The quoted header value, e.g. `"5d41402abc4b2a76"`.
    public let headerValue: String

    /// Derives the tag from the body bytes (64-bit FNV-1a), so equal bodies get equal tags
    /// across restarts and machines.
    public init(of bytes: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        headerValue = "\"" + String(zeroPadded: hash, radix: 16, width: 16) + "\""
    }

    public var description: String { headerValue }

    /// Whether an `If-None-Match` header value names this tag (weak comparison, RFC 9110 §13.1.2):
    /// `*`, or a comma-separated list in which any entry, `W/` prefix ignored, equals this tag.
    public func isMatched(byIfNoneMatch header: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingASCIISpace()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == headerValue
        }
    }
}
