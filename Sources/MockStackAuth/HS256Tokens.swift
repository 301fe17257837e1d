public import MockStackCore
import MockStackDigest

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Issues and checks HS256 JWTs (RFC 7519) synchronously, as an event-loop thread needs:
/// HMAC-SHA256 from the platform (``MockStackDigest/Digest``) over a header and claims written
/// here, in the order the emulated issuer writes them.
public struct HS256Tokens: Sendable {
    private let key: [UInt8]

    public init(secret: String) {
        key = Array(secret.utf8)
    }

    /// A compact JWT: header `{"alg":"HS256","typ":type}`, the claims in the issuer's
    /// `order`, the signature.
    public func sign(_ claims: TokenClaims, type: String = "JWT", order: TokenClaims.Order = .serviceStack) -> String {
        // `alg` first, as jsonwebtoken writes it.
        sign(header: ["alg": "HS256", "typ": .string(type)], payload: claims.payload(in: order))
    }

    /// A compact JWT of a header and payload written as they are, members in their order,
    /// with JSON's minimal escaping (`/` stays `/`): for an issuer whose bytes differ from
    /// ``sign(_:type:order:)``'s.
    public func sign(header: JSONObject, payload: JSONObject) -> String {
        let signingInput =
            Base64URL.encode(JSONValue.object(header).encoded()) + "."
            + Base64URL.encode(JSONValue.object(payload).encoded())
        return signingInput + "." + signature(of: signingInput)
    }

    /// The base64url HMAC-SHA256 of `signingInput` (`header.payload`) under this key: what
    /// ``sign(_:type:order:)`` appends, and what a test forging a header needs.
    public func signature(of signingInput: some StringProtocol) -> String {
        Base64URL.encode(Digest.hmacSHA256(Array(signingInput.utf8), key: key))
    }

    /// The claims and `typ` of a token this signer issued, checked for structure, signature
    /// and expiry at `now` (expired from its `exp` on).
    public func verify(_ token: String, at now: Date) throws(TokenError) -> (claims: TokenClaims, type: String?) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ Base64URL.isValid($0) }),
            let header = Base64URL.decode(parts[0]).flatMap({ try? JSONParser().parse($0).root }),
            header.objectValue != nil,
            let payload = Base64URL.decode(parts[1]).flatMap({ try? JSONParser().parse($0).root }),
            let signature = Base64URL.decode(parts[2])
        else { throw .malformed }
        guard let claims = TokenClaims(json: payload) else { throw .malformed }
        let type: String?
        switch header["typ"] {
        case nil: type = nil
        case .string(let text)?: type = text
        default: throw .malformed
        }
        guard header["alg"] == "HS256" else { throw .invalidSignature }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard ConstantTimeComparison.equal(Digest.hmacSHA256(signingInput, key: key), signature) else {
            throw .invalidSignature
        }
        guard claims.expiration > now else { throw .expired }
        return (claims, type)
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
        !segment.isEmpty
            && segment.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }
}
