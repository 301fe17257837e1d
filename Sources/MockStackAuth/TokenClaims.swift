#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import JWTKit

/// The claims of the JWTs the emulated servers issue: the registered ones plus the user
/// facts ServiceStack's JWT provider writes (`name`, `preferred_username`, `email`, `roles`,
/// `perms`, …). Optional claims are left out of the token when nil.
public struct TokenClaims: JWTPayload, Equatable {
    public var subject: SubjectClaim
    public var issuedAt: IssuedAtClaim
    public var expiration: ExpirationClaim
    public var id: IDClaim?
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

    enum CodingKeys: String, CodingKey {
        case subject = "sub", issuedAt = "iat", expiration = "exp", id = "jti", audience = "aud", issuer = "iss"
        case name, userName = "preferred_username", email, givenName = "given_name", familyName = "family_name"
        case roles, permissions = "perms", sessionId = "sid"
    }

    public init(subject: String, issuedAt: Date, expiration: Date, id: String? = nil) {
        self.subject = SubjectClaim(value: subject)
        self.issuedAt = IssuedAtClaim(value: issuedAt)
        self.expiration = ExpirationClaim(value: expiration)
        self.id = id.map { IDClaim(value: $0) }
    }

    /// The subject (`sub`): the user's id.
    public var userId: String { subject.value }
    /// The token's id (`jti`).
    public var tokenId: String? { id?.value }
    /// When the token was issued, in whole seconds since 1970.
    public var issuedAtSeconds: Int64 { Self.wholeSeconds(issuedAt.value) }
    /// When the token expires, in whole seconds since 1970.
    public var expirySeconds: Int64 { Self.wholeSeconds(expiration.value) }

    /// Whole seconds since 1970, clamped to ±2^53 (a token's `exp` is whatever number its
    /// signer wrote: `1e300` must not trap the conversion).
    static func wholeSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds > 0 ? 1 << 53 : -(1 << 53) }
        return Int64(min(max(seconds, -0x1p53), 0x1p53))
    }

    /// Expiry is checked by ``HS256Tokens/verify(_:at:)`` against the app's clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
