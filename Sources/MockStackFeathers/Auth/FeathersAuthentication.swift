public import MockStackAuth
public import MockStackCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The authentication service's settings and its JWTs (docs/feathers.md#authentication): HS256 tokens with header
/// `typ: access` and the claims `iat`, `exp`, `aud`, (v4) `iss`, `sub` — the user's id as text
/// — and `jti`, checked the way jsonwebtoken checks them, with its error texts.
public struct FeathersAuthentication: Sendable {
    public let secret: String
    /// The entity service (`users`) and the fields the local strategy reads.
    public var service = "users"
    public var entity = "user"
    public var usernameField = "email"
    public var passwordField = "password"
    /// `authStrategies`.
    public var strategies = ["jwt", "local"]
    public var audience = "https://yourdomain.com"
    /// `iss`: `feathers` in v4 apps, absent in v5 generated apps.
    public var issuer: String?
    public var lifetime: TimeInterval = 86_400
    private let tokens: HS256Tokens

    public init(secret: String, dialect: FeathersDialect) {
        self.secret = secret
        issuer = dialect == .v4 ? "feathers" : nil
        tokens = HS256Tokens(secret: secret)
    }

    /// A new access token for a user id, and its payload as the reply shows it.
    public func issue(subject: String, now: Date) -> (token: String, payload: JSONObject) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        var claims = TokenClaims(
            subject: subject, issuedAt: issuedAt, expiration: issuedAt.addingTimeInterval(lifetime),
            id: UUID().uuidString.lowercased())
        claims.audience = audience
        claims.issuer = issuer
        return (tokens.sign(claims, type: "access", order: .jsonWebToken), claims.payload(in: .jsonWebToken))
    }

    /// The token's claims, or the 401 jsonwebtoken's failure becomes: `jwt malformed`,
    /// `invalid signature`, `jwt expired`, `jwt signature is required` (an unsigned token,
    /// `alg: none`), `invalid algorithm`, and the audience and issuer checks. The error's other
    /// fields (`name`, `expiredAt`) are the `data`.
    public func verify(_ token: String, now: Date) throws(FeathersError) -> (claims: TokenClaims, payload: JSONObject) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Self.failure("jwt malformed") }
        guard let header = Self.decodeSegment(parts[0]), case .object(let fields) = header else {
            throw Self.failure("invalid token")
        }
        if parts[2].isEmpty { throw Self.failure("jwt signature is required") }
        guard fields["alg"]?.stringValue == "HS256" else { throw Self.failure("invalid algorithm") }
        let claims: TokenClaims
        do {
            claims = try tokens.verify(token, at: now).claims
        } catch {
            switch error {
            case .malformed: throw Self.failure("invalid token")
            case .invalidSignature: throw Self.failure("invalid signature")
            case .expired:
                // verify() read the payload already, so this parse cannot fail.
                let expiry = Self.decodeSegment(parts[1])?["exp"]?.intValue ?? 0
                let expiredAt = Date(timeIntervalSince1970: TimeInterval(expiry)).formatted(
                    Date.ISO8601FormatStyle(includingFractionalSeconds: true))
                throw FeathersError(
                    .notAuthenticated, "jwt expired",
                    data: ["name": "TokenExpiredError", "expiredAt": .string(expiredAt)])
            }
        }
        guard claims.audience == audience else { throw Self.failure("jwt audience invalid. expected: \(audience)") }
        if let issuer, claims.issuer != issuer { throw Self.failure("jwt issuer invalid. expected: \(issuer)") }
        return (claims, claims.payload(in: .jsonWebToken))
    }

    /// The token an `Authorization` header carries (docs/feathers.md#the-authorization-header):
    /// `Bearer <t>` or `JWT <t>` (any case), or a bare token without whitespace; nil for other
    /// schemes or none.
    public static func token(fromAuthorization header: String?) -> String? {
        guard let header = header?.trimmingASCIISpace(), !header.isEmpty else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        if parts.count == 1 { return String(parts[0]) }
        let scheme = parts[0].lowercased()
        guard scheme == "bearer" || scheme == "jwt" else { return nil }
        return String(parts[1].trimmingASCIISpace())
    }

    /// The payload as jsonwebtoken decodes it: `iat`, `exp`, `aud`, `iss`, `sub`, `jti`.
    private static func failure(_ message: String) -> FeathersError {
        FeathersError(.notAuthenticated, message, data: ["name": "JsonWebTokenError"])
    }

    private static func decodeSegment(_ segment: Substring) -> JSONValue? {
        Base64URL.decode(segment).flatMap { try? JSONParser().parse($0).root }
    }
}
