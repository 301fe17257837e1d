import MockStackJSON

/// The control plane's admin token as the server and its test clients both see it: the header
/// it travels in, which bindings need one, and how one is made.
public enum AdminToken {
    /// The request header a client sends the token in (`Authorization: Bearer T` also works).
    public static let header = "X-MockStack-Admin-Token"

    /// `127.0.0.0/8`, `::1` and `localhost`; anything else — a wildcard, an interface's address,
    /// a host name — may be reachable from elsewhere, so a server bound there wants a token.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// A fresh token: 128 random bits from the system's generator, as 32 hexadecimal digits.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(zeroPadded: generator.next() as UInt64, radix: 16, width: 16) }.joined()
    }
}
