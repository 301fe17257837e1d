import MockStackCore
import MockStackDigest

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stores passwords as salted SHA-256 (`sha256$<salt>$<digest>`, hex): never in the clear, and
/// fast enough to check on every login a test makes. Real servers use bcrypt; what a client
/// sees — a password that is accepted or not, and never returned — is the same.
public enum PasswordHasher {
    public static func hash(_ password: String) -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: .min ... .max, using: &generator) }
        return "sha256$" + HexText.of(salt) + "$" + HexText.of(digest(password, salt: salt))
    }

    /// Whether the password is the one the stored hash was made from.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sha256", let salt = bytes(fromHex: parts[1]),
            let expected = bytes(fromHex: parts[2])
        else { return false }
        return ConstantTimeComparison.equal(digest(password, salt: salt), expected)
    }

    /// Whether a stored value is one of these hashes (a seed may give passwords in the clear).
    public static func isHash(_ value: String) -> Bool {
        value.hasPrefix("sha256$") && value.split(separator: "$").count == 3
    }

    private static func digest(_ password: String, salt: [UInt8]) -> [UInt8] {
        Digest.sha256(salt + Array(password.utf8))
    }

    private static func bytes(fromHex text: Substring) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}
