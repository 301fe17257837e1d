#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A certificate authority made for one run of the server, and the server certificate it signs
/// for the loopback names (docs/transport.md#tls). Both keys are ECDSA P-256, the signatures
/// SHA-256, and the extensions are those the strictest common checkers ask of a private CA:
/// Apple's (a subject alternative name, `serverAuth`, at most 825 days), and OpenSSL's strict
/// mode, which Python 3.13 turns on (key identifiers on both, a critical `basicConstraints`).
///
/// The CA's name carries a random tag and each certificate a random serial number, so that a
/// client which keeps the certificates it has seen never meets two different ones by one name.
struct LoopbackCertificates {
    /// The CA's certificate, as PEM text: what a client is told to trust.
    let authorityPEM: String
    /// The server's certificate (`X509 *`) and key (`EVP_PKEY *`), owned here until ``free()``.
    let certificate: OpaquePointer
    let key: OpaquePointer

    /// The names the server certificate is for.
    static let names = ["DNS:localhost", "IP:127.0.0.1", "IP:::1"]
    /// How long the server certificate lasts: under the 398 days browsers accept from public
    /// CAs, well under Apple's 825.
    static let serverDays = 397
    /// The CA outlives its one certificate by a little.
    static let authorityDays = 398

    /// Makes both certificates.
    static func make(with ssl: OpenSSL, extraNames: [String] = []) throws(TLSUnavailable) -> LoopbackCertificates {
        let authorityKey = try makeKey(ssl)
        defer { ssl.EVP_PKEY_free(authorityKey) }
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let authority = try makeCertificate(
            ssl, commonName: "mockstack CA \(tag)", key: authorityKey, issuer: nil, days: authorityDays,
            extensions: [
                ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
                ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
            ])
        defer { ssl.X509_free(authority) }
        let serverKey = try makeKey(ssl)
        let server: OpaquePointer
        do {
            server = try makeCertificate(
                ssl, commonName: "localhost", key: serverKey, issuer: (authority, authorityKey), days: serverDays,
                extensions: [
                    ("basicConstraints", "critical,CA:FALSE"),
                    ("keyUsage", "critical,digitalSignature"),
                    ("extendedKeyUsage", "serverAuth"),
                    ("subjectAltName", (names + extraNames).joined(separator: ",")),
                    ("subjectKeyIdentifier", "hash"),
                    ("authorityKeyIdentifier", "keyid:always"),
                ])
        } catch {
            ssl.EVP_PKEY_free(serverKey)
            throw error
        }
        return LoopbackCertificates(authorityPEM: try pem(ssl, authority), certificate: server, key: serverKey)
    }

    /// Lets go of the server's certificate and key (a TLS context keeps its own references).
    func free(with ssl: OpenSSL) {
        ssl.X509_free(certificate)
        ssl.EVP_PKEY_free(key)
    }

    private static func makeKey(_ ssl: OpenSSL) throws(TLSUnavailable) -> OpaquePointer {
        guard let context = ssl.EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw TLSUnavailable("EVP_PKEY_CTX_new_from_name failed: \(ssl.drainErrors())")
        }
        defer { ssl.EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard ssl.EVP_PKEY_keygen_init(context) == 1, ssl.EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            ssl.EVP_PKEY_generate(context, &key) == 1, let key
        else { throw TLSUnavailable("making a P-256 key failed: \(ssl.drainErrors())") }
        return key
    }

    private static func makeCertificate(
        _ ssl: OpenSSL, commonName: String, key: OpaquePointer,
        issuer: (certificate: OpaquePointer, key: OpaquePointer)?,
        days: Int, extensions: [(name: String, value: String)]
    ) throws(TLSUnavailable) -> OpaquePointer {
        guard let certificate = ssl.X509_new() else { throw TLSUnavailable("X509_new failed: \(ssl.drainErrors())") }
        let subject = ssl.X509_get_subject_name(certificate)
        var made =
            ssl.X509_set_version(certificate, 2) == 1
            && ssl.ASN1_INTEGER_set_uint64(ssl.X509_get_serialNumber(certificate), UInt64.random(in: 1...(1 << 62)))
                == 1
            // An hour back, for a client whose clock is a little behind the server's.
            && ssl.X509_gmtime_adj(ssl.X509_getm_notBefore(certificate), -3600) != nil
            && ssl.X509_gmtime_adj(ssl.X509_getm_notAfter(certificate), days * 86_400) != nil
            && ssl.X509_set_pubkey(certificate, key) == 1
            && addEntry(ssl, subject, "O", "mockstack") && addEntry(ssl, subject, "CN", commonName)
            && ssl.X509_set_issuer_name(
                certificate, issuer.map { ssl.X509_get_subject_name($0.certificate) } ?? subject)
                == 1
        if made {
            made = addExtensions(ssl, extensions, to: certificate, issuer: issuer?.certificate ?? certificate)
        }
        guard made, ssl.X509_sign(certificate, issuer?.key ?? key, ssl.EVP_sha256()) > 0 else {
            ssl.X509_free(certificate)
            throw TLSUnavailable("making the certificate for \(commonName) failed: \(ssl.drainErrors())")
        }
        return certificate
    }

    /// MBSTRING_ASC: the value is ASCII text.
    private static let asciiText: Int32 = 0x1001

    private static func addEntry(_ ssl: OpenSSL, _ name: OpaquePointer?, _ field: String, _ value: String) -> Bool {
        let bytes = Array(value.utf8)
        return ssl.X509_NAME_add_entry_by_txt(name, field, asciiText, bytes, Int32(bytes.count), -1, 0) == 1
    }

    /// Adds each extension from OpenSSL's configuration syntax (`critical,CA:TRUE`). The
    /// context OpenSSL reads the issuer and subject from (`X509V3_CTX`) is a small struct it
    /// only fills: it gets a zeroed block larger than any release's.
    private static func addExtensions(
        _ ssl: OpenSSL, _ extensions: [(name: String, value: String)], to certificate: OpaquePointer,
        issuer: OpaquePointer
    ) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { context in
            context.initializeMemory(as: UInt8.self, repeating: 0)
            ssl.X509V3_set_ctx(context.baseAddress, issuer, certificate, nil, nil, 0)
            for (name, value) in extensions {
                guard let made = ssl.X509V3_EXT_nconf(nil, context.baseAddress, name, value) else { return false }
                defer { ssl.X509_EXTENSION_free(made) }
                guard ssl.X509_add_ext(certificate, made, -1) == 1 else { return false }
            }
            return true
        }
    }

    /// BIO_CTRL_INFO: a memory BIO's bytes (`BIO_get_mem_data`).
    private static let memoryContents: Int32 = 3

    private static func pem(_ ssl: OpenSSL, _ certificate: OpaquePointer) throws(TLSUnavailable) -> String {
        guard let bio = ssl.BIO_new(ssl.BIO_s_mem()) else {
            throw TLSUnavailable("BIO_new failed: \(ssl.drainErrors())")
        }
        defer { _ = ssl.BIO_free(bio) }
        var start: UnsafeMutableRawPointer?
        guard ssl.PEM_write_bio_X509(bio, certificate) == 1 else {
            throw TLSUnavailable("PEM_write_bio_X509 failed: \(ssl.drainErrors())")
        }
        let count = withUnsafeMutablePointer(to: &start) { ssl.BIO_ctrl(bio, memoryContents, 0, $0) }
        guard count > 0, let start else { throw TLSUnavailable("the CA's PEM text is empty") }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
