#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import Crypto
import JWTKit

/// Issues and checks HS256 JWTs synchronously, as an event-loop thread needs.
///
/// jwt-kit 5 signs and verifies only through its `JWTKeyCollection` actor, which a handler that
/// must answer without suspending cannot await. So the token is assembled from jwt-kit's own
/// pieces, which are synchronous (its payload serializer, header type and parser) and signed
/// with swift-crypto's HMAC-SHA256, the primitive jwt-kit's HS256 signer wraps.
public struct HS256Tokens: Sendable {
    private let key: SymmetricKey

    public init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    /// A compact JWT: header `{"alg":"HS256","typ":type}`, the claims, the signature.
    public func sign(_ claims: TokenClaims, type: String = "JWT") -> String {
        // Written out, so `alg` comes first as jsonwebtoken and ServiceStack write it (jwt-kit's
        // header is a dictionary, whose order changes from run to run); `type` is a plain token.
        let headerJSON = Array(#"{"alg":"HS256","typ":""#.utf8) + Array(type.utf8.filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) + Array(#""}"#.utf8)
        // Encoding these Codable values cannot fail: they hold only strings, numbers and arrays.
        let payload = (try? DefaultJWTSerializer().serialize(claims)) ?? Data()
        let signingInput = Base64URL.encode(headerJSON) + "." + String(decoding: payload, as: UTF8.self)
        return signingInput + "." + signature(of: signingInput)
    }

    /// The base64url HMAC-SHA256 of `signingInput` (`header.payload`) under this key: what
    /// ``sign(_:type:)`` appends, and what a test forging a header needs.
    public func signature(of signingInput: some StringProtocol) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)))
    }

    /// The claims and `typ` of a token this signer issued, checked for structure, signature
    /// and expiry at `now`.
    public func verify(_ token: String, at now: Date) throws(TokenError) -> (claims: TokenClaims, type: String?) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ Base64URL.isValid($0) }) else { throw .malformed }
        let parsed: (header: JWTHeader, payload: TokenClaims, signature: Data)
        do {
            parsed = try DefaultJWTParser().parse(Array(token.utf8), as: TokenClaims.self)
        } catch {
            throw .malformed
        }
        guard parsed.header.alg == "HS256" else { throw .invalidSignature }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMAC<SHA256>.isValidAuthenticationCode(Array(parsed.signature), authenticating: signingInput, using: key) else {
            throw .invalidSignature
        }
        do {
            try parsed.payload.expiration.verifyNotExpired(currentDate: now)
        } catch {
            throw .expired
        }
        return (parsed.payload, parsed.header.typ)
    }
}

/// Why a token was refused.
public enum TokenError: Error, Sendable, Equatable {
    /// Not three base64url segments of JSON.
    case malformed
    case invalidSignature
    case expired
}

/// base64url without padding (RFC 7515 §2).
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacing("+", with: "-").replacing("/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of a segment, or nil when it is not base64url.
    public static func decode(_ segment: some StringProtocol) -> [UInt8]? {
        guard isValid(segment) else { return nil }
        var text = String(segment).replacing("-", with: "+").replacing("_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map(Array.init)
    }

    public static func isValid(_ segment: some StringProtocol) -> Bool {
        !segment.isEmpty && segment.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
