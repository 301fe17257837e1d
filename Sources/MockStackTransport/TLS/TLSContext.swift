#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the server's certificate comes from.
public enum TLSCertificateSource: Sendable, Equatable {
    /// Made at start: a CA for this run and a certificate it signs for `localhost`, `127.0.0.1`
    /// and `::1`, and for `extraNames` too (`DNS:mockstack`, `IP:10.0.0.5`).
    case generated(extraNames: [String] = [])
    /// PEM files the user gave: the certificate (its chain may follow it) and its private key.
    case files(certificate: String, key: String)
}

/// One OpenSSL server context (`SSL_CTX`): the certificate, its key and the protocol versions,
/// shared by every TLS listener of every loop (OpenSSL makes each connection's `SSL` from it,
/// safely from any thread). Kept for the process's life once made.
public final class TLSContext: Sendable {
    /// The CA's certificate as PEM text, when the certificate was made here
    /// (``TLSCertificateSource/generated(extraNames:)``).
    public let authorityPEM: String?
    nonisolated(unsafe) let context: OpaquePointer
    let ssl: OpenSSL

    /// TLS_1_2_VERSION: older versions are refused, as current clients refuse them.
    private static let minimumVersion = 0x0303
    /// SSL_CTRL_SET_MIN_PROTO_VERSION (`SSL_CTX_set_min_proto_version`).
    private static let setMinimumVersion: Int32 = 123
    /// SSL_FILETYPE_PEM.
    private static let pemFile: Int32 = 1

    /// Opens OpenSSL (at the first call) and makes the context.
    /// - Throws: ``TLSUnavailable`` when the libraries are missing, or the certificate cannot be
    ///   made or read (a missing file, a key that is not the certificate's).
    public init(_ source: TLSCertificateSource) throws(TLSUnavailable) {
        let ssl = try OpenSSL.shared.get()
        guard let context = ssl.SSL_CTX_new(ssl.TLS_server_method()) else {
            throw TLSUnavailable("SSL_CTX_new failed: \(ssl.drainErrors())")
        }
        do throws(TLSUnavailable) {
            guard ssl.SSL_CTX_ctrl(context, Self.setMinimumVersion, Self.minimumVersion, nil) == 1 else {
                throw TLSUnavailable("setting TLS 1.2 as the lowest version failed: \(ssl.drainErrors())")
            }
            switch source {
            case .generated(let extraNames):
                let made = try LoopbackCertificates.make(with: ssl, extraNames: extraNames)
                defer { made.free(with: ssl) }
                guard ssl.SSL_CTX_use_certificate(context, made.certificate) == 1,
                    ssl.SSL_CTX_use_PrivateKey(context, made.key) == 1
                else { throw TLSUnavailable("the made certificate was refused: \(ssl.drainErrors())") }
                authorityPEM = made.authorityPEM
            case .files(let certificate, let key):
                for (option, path) in [("--tls-cert", certificate), ("--tls-key", key)] where access(path, R_OK) != 0 {
                    throw TLSUnavailable("\(option) \(path): \(errno == ENOENT ? "no such file" : "cannot be read")")
                }
                guard ssl.SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
                    throw TLSUnavailable("--tls-cert \(certificate): \(ssl.drainErrors())")
                }
                // OpenSSL checks that the key is the certificate's as it loads it.
                guard ssl.SSL_CTX_use_PrivateKey_file(context, key, Self.pemFile) == 1 else {
                    let reason = ssl.drainErrors()
                    throw TLSUnavailable(
                        reason.contains("key values mismatch")
                            ? "--tls-key \(key) is not the key of --tls-cert \(certificate)"
                            : "--tls-key \(key): \(reason)")
                }
                authorityPEM = nil
            }
        } catch {
            ssl.SSL_CTX_free(context)
            throw error
        }
        self.context = context
        self.ssl = ssl
    }

    deinit { ssl.SSL_CTX_free(context) }
}

extension TLSContext {
    /// BUFFEREVENT_SSL_ACCEPTING: the server's side of a handshake still to come.
    private static let accepting: UInt32 = 2

    /// An OpenSSL bufferevent over `socket` on `base`, and its `SSL`, both the caller's to
    /// free. Made without `BEV_OPT_CLOSE_ON_FREE`: the connection keeps the socket, to linger on
    /// it after a refusal, and frees the `SSL` itself.
    func makeBufferevent(base: OpaquePointer, socket: Int32) -> (bufferevent: OpaquePointer, session: OpaquePointer)? {
        guard let session = ssl.SSL_new(context) else { return nil }
        guard let bufferevent = ssl.bufferevent_openssl_socket_new(base, socket, session, Self.accepting, 0) else {
            ssl.SSL_free(session)
            return nil
        }
        // A client that closes without TLS's goodbye (most do) has ended, not failed.
        ssl.bufferevent_openssl_set_allow_dirty_shutdown(bufferevent, 1)
        return (bufferevent, session)
    }

    /// Whether the handshake failed because the client sent plain HTTP (OpenSSL recognises a
    /// request line where a TLS record should be). Empties the bufferevent's error list.
    func sawPlainHTTP(on bufferevent: OpaquePointer) -> Bool {
        var found = false
        while case let error = ssl.bufferevent_get_openssl_error(bufferevent), error != 0 {
            // ERR_GET_LIB and ERR_GET_REASON of OpenSSL 3; a system error sets the top bit.
            let isSystem = error & (1 << 31) != 0
            if !isSystem, (error >> 23) & 0xFF == Self.sslLibrary, error & 0x7F_FFFF == Self.httpRequestReason {
                found = true
            }
        }
        return found
    }

    /// ERR_LIB_SSL, and SSL_R_HTTP_REQUEST.
    private static let sslLibrary: UInt = 20
    private static let httpRequestReason: UInt = 156
}
