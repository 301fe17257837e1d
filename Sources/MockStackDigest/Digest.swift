#if os(Linux)
import CLibcrypto
#else
import CryptoKit
#endif

/// The digests the emulated servers need, from the platform's own crypto library: OpenSSL's
/// libcrypto on Linux (a system library, as libevent is), CryptoKit on Apple's systems, so that
/// a package building the server compiles no crypto of its own. None of them guards a secret
/// here: SHA-1 is the WebSocket handshake's, SHA-256 hashes the emulated users' passwords and
/// HMAC-SHA256 signs the emulated JWTs.
public enum Digest {
    /// SHA-1 of `bytes` (20 bytes).
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        #if os(Linux)
        libcryptoDigest(bytes, EVP_sha1(), length: 20)
        #else
        Array(Insecure.SHA1.hash(data: bytes))
        #endif
    }

    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if os(Linux)
        libcryptoDigest(bytes, EVP_sha256(), length: 32)
        #else
        Array(SHA256.hash(data: bytes))
        #endif
    }

    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        #if os(Linux)
        var code = [UInt8](repeating: 0, count: 32)
        var written: UInt32 = 0
        let done = key.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { message in
                code.withUnsafeMutableBufferPointer { code in
                    HMAC(
                        EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count,
                        code.baseAddress, &written)
                }
            }
        }
        precondition(done != nil && written == 32, "libcrypto's HMAC-SHA256 failed")
        return code
        #else
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        #endif
    }

    #if os(Linux)
    /// One-shot `EVP_Digest` of `bytes` with the digest `type`, which writes `length` bytes.
    private static func libcryptoDigest(_ bytes: [UInt8], _ type: OpaquePointer?, length: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &written, type, nil)
            }
        }
        precondition(status == 1 && written == length, "libcrypto's digest failed")
        return output
    }
    #endif
}
