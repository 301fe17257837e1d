import MockStackAuth
import MockStackCore

/// The bytes of the JWTs ServiceStack's `JwtAuthProvider` writes. Its header is
/// `{"typ":"JWT","alg":"HS256"}` (`JWTR` for refresh tokens); its claims are a `JsonObject`
/// filled in a fixed order — `iss`, `sub`, `iat`, `exp`, `aud`, `email`, `given_name`,
/// `family_name`, `name`, `preferred_username`, `roles`, `perms`, then `jti` — whose unset
/// entries are left out, and whose writer puts text that reads as a JSON number down as that
/// number (`"sub":1`, `"jti":-1`). A refresh token carries `sub`, `iat`, `exp` and `jti`.
enum ServiceStackTokenWriter {
    static func header(type: String) -> JSONObject {
        ["typ": .string(type), "alg": "HS256"]
    }

    /// The claims in ServiceStack's order, `sub` and `jti` written as numbers where their text is one.
    static func payload(_ claims: TokenClaims) -> JSONObject {
        var payload = claims.payload(in: .serviceStack)
        for key in ["sub", "jti"] {
            if case .string(let text)? = payload[key], let number = javaScriptNumber(text) {
                payload[key] = .number(number)
            }
        }
        return payload
    }

    /// `JsonObject`'s rule for writing a value raw: an integer (no leading zero but `0`
    /// itself) or a decimal with a point, within ±2^53.
    static func javaScriptNumber(_ text: String) -> JSONNumber? {
        guard let first = text.utf8.first else { return nil }
        let limit = 9_007_199_254_740_992.0
        if !text.contains(".") {
            if first == UInt8(ascii: "0"), text.utf8.count > 1 { return nil }
            guard let value = Int64(text), Double(value) < limit, Double(value) > -limit else { return nil }
            return JSONNumber(Int(value))
        }
        // Only decimals that are JSON numbers as they stand (`-1.5`; .NET would also take `1.`).
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in
            !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        guard parts.count == 2, digits(parts[0].hasPrefix("-") ? parts[0].dropFirst() : parts[0]), digits(parts[1]),
            let value = Double(text), value < limit, value > -limit
        else { return nil }
        return JSONNumber(literal: text)
    }
}
