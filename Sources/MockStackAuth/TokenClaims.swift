public import MockStackCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The claims of the JWTs the emulated servers issue: the registered ones plus the user
/// facts ServiceStack's JWT provider writes (`name`, `preferred_username`, `email`, `roles`,
/// `perms`, …). Optional claims are left out of the token when nil.
public struct TokenClaims: Sendable, Equatable {
    /// The subject (`sub`): the user's id.
    public var userId: String
    public var issuedAt: Date
    public var expiration: Date
    /// The token's id (`jti`).
    public var tokenId: String?
    public var audience: String?
    public var issuer: String?
    public var name: String?
    public var userName: String?
    public var email: String?
    public var givenName: String?
    public var familyName: String?
    public var roles: [String]?
    public var permissions: [String]?
    /// The session the token was issued for, when it came from an authenticated session.
    public var sessionId: String?

    public init(subject: String, issuedAt: Date, expiration: Date, id: String? = nil) {
        userId = subject
        self.issuedAt = issuedAt
        self.expiration = expiration
        tokenId = id
    }

    /// When the token was issued, in whole seconds since 1970.
    public var issuedAtSeconds: Int64 { Self.wholeSeconds(issuedAt) }
    /// When the token expires, in whole seconds since 1970.
    public var expirySeconds: Int64 { Self.wholeSeconds(expiration) }

    /// Whole seconds since 1970, clamped to ±2^53 (a token's `exp` is whatever number its
    /// signer wrote: `1e300` must not trap the conversion).
    static func wholeSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds > 0 ? 1 << 53 : -(1 << 53) }
        return Int64(min(max(seconds, -0x1p53), 0x1p53))
    }

    /// The order a token's issuer writes its claims in.
    public enum Order: Sendable {
        /// ServiceStack's JWT provider: `iss`, `sub`, `iat`, `exp`, `aud`, then the user's facts.
        case serviceStack
        /// The `jsonwebtoken` package Feathers signs with: `iat`, `exp`, `aud`, `iss`, `sub`, `jti`.
        case jsonWebToken

        var keys: [String] {
            switch self {
            case .serviceStack:
                [
                    "iss", "sub", "iat", "exp", "aud", "email", "given_name", "family_name", "name",
                    "preferred_username", "roles", "perms", "jti", "sid",
                ]
            case .jsonWebToken:
                [
                    "iat", "exp", "aud", "iss", "sub", "jti", "name", "preferred_username", "email", "given_name",
                    "family_name", "roles", "perms", "sid",
                ]
            }
        }
    }

    /// The payload as JSON, in the issuer's order: what the token carries.
    public func payload(in order: Order) -> JSONObject {
        let strings = [
            "iss": issuer, "sub": userId, "aud": audience, "email": email, "given_name": givenName,
            "family_name": familyName,
            "name": name, "preferred_username": userName, "jti": tokenId, "sid": sessionId,
        ]
        let lists = ["roles": roles, "perms": permissions]
        var payload = JSONObject()
        for key in order.keys {
            switch key {
            case "iat": payload[key] = .number(JSONNumber(Int(issuedAtSeconds)))
            case "exp": payload[key] = .number(JSONNumber(Int(expirySeconds)))
            default:
                if let text = strings[key] ?? nil { payload[key] = .string(text) }
                if let values = lists[key] ?? nil { payload[key] = .array(values.map(JSONValue.string)) }
            }
        }
        return payload
    }

    /// Reads a payload: `sub`, `iat` and `exp` are required; every claim read must have its
    /// type (a string, a number of seconds, an array of strings); others are ignored.
    init?(json: JSONValue) {
        // ServiceStack writes a `sub` (and `jti`) that reads as a number as that number.
        guard case .object(let payload) = json, let subject = Self.text(payload["sub"]),
            case .number(let issued)? = payload["iat"], case .number(let expires)? = payload["exp"]
        else { return nil }
        self.init(
            subject: subject, issuedAt: Date(timeIntervalSince1970: issued.doubleValue),
            expiration: Date(timeIntervalSince1970: expires.doubleValue))
        func string(_ key: String) throws(ClaimTypeError) -> String? {
            switch payload[key] {
            case nil: return nil
            case .string(let text)?: return text
            default: throw ClaimTypeError()
            }
        }
        func strings(_ key: String) throws(ClaimTypeError) -> [String]? {
            switch payload[key] {
            case nil: return nil
            case .array(let items)?:
                return try items.map { item throws(ClaimTypeError) in
                    guard case .string(let text) = item else { throw ClaimTypeError() }
                    return text
                }
            default: throw ClaimTypeError()
            }
        }
        do {
            tokenId = try Self.text(payload["jti"]) ?? string("jti")
            audience = try string("aud")
            issuer = try string("iss")
            name = try string("name")
            userName = try string("preferred_username")
            email = try string("email")
            givenName = try string("given_name")
            familyName = try string("family_name")
            roles = try strings("roles")
            permissions = try strings("perms")
            sessionId = try string("sid")
        } catch {
            return nil
        }
        guard issuedAt.timeIntervalSince1970.isFinite, expiration.timeIntervalSince1970.isFinite else { return nil }
    }

    /// A string claim's text, or a number claim's literal.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number.literal
        default: nil
        }
    }

    private struct ClaimTypeError: Error {}
}
