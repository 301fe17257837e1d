import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libevent's OpenSSL bufferevents and, through them, OpenSSL itself: opened with `dlopen` when
/// the first TLS listener is made, never linked. A server without `--https-port` loads none of
/// it, so its start-up and its plain request path are unchanged, and the package builds without
/// OpenSSL's headers (docs/transport.md#tls).
///
/// One library is opened: the `libevent_openssl` that sits beside the libevent this process
/// runs, so both are the same release. Every OpenSSL function is looked up through it, in the
/// libssl and libcrypto it was built against. Each is declared here with its C types as Swift
/// passes them: every OpenSSL object is an opaque pointer, `long` is `Int`.
///
/// `@unchecked Sendable`: the table is filled once, before the value exists, and only read.
struct OpenSSL: @unchecked Sendable {
    typealias Object = OpaquePointer
    typealias Text = UnsafePointer<CChar>

    // libevent_openssl
    let bufferevent_openssl_socket_new: @convention(c) (Object?, Int32, Object?, UInt32, Int32) -> Object?
    let bufferevent_openssl_set_allow_dirty_shutdown: @convention(c) (Object?, Int32) -> Void
    let bufferevent_get_openssl_error: @convention(c) (Object?) -> UInt

    // libssl
    let TLS_server_method: @convention(c) () -> Object?
    let SSL_CTX_new: @convention(c) (Object?) -> Object?
    let SSL_CTX_free: @convention(c) (Object?) -> Void
    let SSL_CTX_ctrl: @convention(c) (Object?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_use_certificate: @convention(c) (Object?, Object?) -> Int32
    let SSL_CTX_use_PrivateKey: @convention(c) (Object?, Object?) -> Int32
    let SSL_CTX_use_certificate_chain_file: @convention(c) (Object?, Text?) -> Int32
    let SSL_CTX_use_PrivateKey_file: @convention(c) (Object?, Text?, Int32) -> Int32
    let SSL_new: @convention(c) (Object?) -> Object?
    let SSL_free: @convention(c) (Object?) -> Void

    // libcrypto: errors
    let ERR_get_error: @convention(c) () -> UInt
    let ERR_error_string_n: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void

    // libcrypto: keys
    let EVP_PKEY_CTX_new_from_name: @convention(c) (Object?, Text?, Text?) -> Object?
    let EVP_PKEY_keygen_init: @convention(c) (Object?) -> Int32
    let EVP_PKEY_CTX_set_group_name: @convention(c) (Object?, Text?) -> Int32
    let EVP_PKEY_generate: @convention(c) (Object?, UnsafeMutablePointer<Object?>?) -> Int32
    let EVP_PKEY_CTX_free: @convention(c) (Object?) -> Void
    let EVP_PKEY_free: @convention(c) (Object?) -> Void
    let EVP_sha256: @convention(c) () -> Object?

    // libcrypto: certificates
    let X509_new: @convention(c) () -> Object?
    let X509_free: @convention(c) (Object?) -> Void
    let X509_set_version: @convention(c) (Object?, Int) -> Int32
    let X509_get_serialNumber: @convention(c) (Object?) -> Object?
    let ASN1_INTEGER_set_uint64: @convention(c) (Object?, UInt64) -> Int32
    let X509_getm_notBefore: @convention(c) (Object?) -> Object?
    let X509_getm_notAfter: @convention(c) (Object?) -> Object?
    let X509_gmtime_adj: @convention(c) (Object?, Int) -> Object?
    let X509_set_pubkey: @convention(c) (Object?, Object?) -> Int32
    let X509_get_subject_name: @convention(c) (Object?) -> Object?
    let X509_set_issuer_name: @convention(c) (Object?, Object?) -> Int32
    let X509_NAME_add_entry_by_txt:
        @convention(c) (Object?, Text?, Int32, UnsafePointer<UInt8>?, Int32, Int32, Int32) -> Int32
    let X509V3_set_ctx: @convention(c) (UnsafeMutableRawPointer?, Object?, Object?, Object?, Object?, Int32) -> Void
    let X509V3_EXT_nconf: @convention(c) (Object?, UnsafeMutableRawPointer?, Text?, Text?) -> Object?
    let X509_add_ext: @convention(c) (Object?, Object?, Int32) -> Int32
    let X509_EXTENSION_free: @convention(c) (Object?) -> Void
    let X509_sign: @convention(c) (Object?, Object?, Object?) -> Int32

    // libcrypto: PEM text in memory
    let BIO_s_mem: @convention(c) () -> Object?
    let BIO_new: @convention(c) (Object?) -> Object?
    let BIO_free: @convention(c) (Object?) -> Int32
    let BIO_ctrl: @convention(c) (Object?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let PEM_write_bio_X509: @convention(c) (Object?, Object?) -> Int32

    /// The library once opened, or why it could not be; opened at the first use.
    static let shared: Result<OpenSSL, TLSUnavailable> = open()

    private static func open() -> Result<OpenSSL, TLSUnavailable> {
        let candidates = libraryCandidates()
        var reasons: [String] = []
        for name in candidates {
            guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): no reason given")
                continue
            }
            do throws(TLSUnavailable) {
                return .success(try OpenSSL(library: library, name: name))
            } catch {
                dlclose(library)
                return .failure(error)
            }
        }
        return .failure(
            TLSUnavailable(
                "libevent's OpenSSL support could not be loaded: \(installHint) (\(reasons.joined(separator: "; ")))"))
    }

    #if canImport(Darwin)
    static let fileName = "libevent_openssl-2.1.7.dylib"
    static let installHint = "install libevent with Homebrew (brew install libevent), which brings openssl@3"
    #else
    static let fileName = "libevent_openssl-2.1.so.7"
    static let installHint = "install libevent-openssl-2.1-7 (apt-get install libevent-dev brings it)"
    #endif

    /// Where to look. On Linux the loader's own search, which finds the distribution's
    /// `libevent_openssl` where it keeps libevent. On a Mac the folder of the libevent this
    /// process runs comes first (Homebrew's, wherever its prefix is), then the loader's search.
    private static func libraryCandidates() -> [String] {
        #if canImport(Darwin)
        let linked: @convention(c) () -> OpaquePointer? = event_base_new
        var info = Dl_info()
        guard dladdr(unsafeBitCast(linked, to: UnsafeRawPointer.self), &info) != 0, let path = info.dli_fname else {
            return [fileName]
        }
        let libevent = String(cString: path)
        guard let slash = libevent.lastIndex(of: "/") else { return [fileName] }
        return [String(libevent[...slash]) + fileName, fileName]
        #else
        return [fileName]
        #endif
    }

    private init(library: UnsafeMutableRawPointer, name: String) throws(TLSUnavailable) {
        func find<Function>(_ symbol: String) throws(TLSUnavailable) -> Function {
            guard let address = dlsym(library, symbol) else {
                throw TLSUnavailable("\(name) has no \(symbol): OpenSSL 3 and libevent 2.1 are needed")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        bufferevent_openssl_socket_new = try find("bufferevent_openssl_socket_new")
        bufferevent_openssl_set_allow_dirty_shutdown = try find("bufferevent_openssl_set_allow_dirty_shutdown")
        bufferevent_get_openssl_error = try find("bufferevent_get_openssl_error")
        TLS_server_method = try find("TLS_server_method")
        SSL_CTX_new = try find("SSL_CTX_new")
        SSL_CTX_free = try find("SSL_CTX_free")
        SSL_CTX_ctrl = try find("SSL_CTX_ctrl")
        SSL_CTX_use_certificate = try find("SSL_CTX_use_certificate")
        SSL_CTX_use_PrivateKey = try find("SSL_CTX_use_PrivateKey")
        SSL_CTX_use_certificate_chain_file = try find("SSL_CTX_use_certificate_chain_file")
        SSL_CTX_use_PrivateKey_file = try find("SSL_CTX_use_PrivateKey_file")
        SSL_new = try find("SSL_new")
        SSL_free = try find("SSL_free")
        ERR_get_error = try find("ERR_get_error")
        ERR_error_string_n = try find("ERR_error_string_n")
        EVP_PKEY_CTX_new_from_name = try find("EVP_PKEY_CTX_new_from_name")
        EVP_PKEY_keygen_init = try find("EVP_PKEY_keygen_init")
        EVP_PKEY_CTX_set_group_name = try find("EVP_PKEY_CTX_set_group_name")
        EVP_PKEY_generate = try find("EVP_PKEY_generate")
        EVP_PKEY_CTX_free = try find("EVP_PKEY_CTX_free")
        EVP_PKEY_free = try find("EVP_PKEY_free")
        EVP_sha256 = try find("EVP_sha256")
        X509_new = try find("X509_new")
        X509_free = try find("X509_free")
        X509_set_version = try find("X509_set_version")
        X509_get_serialNumber = try find("X509_get_serialNumber")
        ASN1_INTEGER_set_uint64 = try find("ASN1_INTEGER_set_uint64")
        X509_getm_notBefore = try find("X509_getm_notBefore")
        X509_getm_notAfter = try find("X509_getm_notAfter")
        X509_gmtime_adj = try find("X509_gmtime_adj")
        X509_set_pubkey = try find("X509_set_pubkey")
        X509_get_subject_name = try find("X509_get_subject_name")
        X509_set_issuer_name = try find("X509_set_issuer_name")
        X509_NAME_add_entry_by_txt = try find("X509_NAME_add_entry_by_txt")
        X509V3_set_ctx = try find("X509V3_set_ctx")
        X509V3_EXT_nconf = try find("X509V3_EXT_nconf")
        X509_add_ext = try find("X509_add_ext")
        X509_EXTENSION_free = try find("X509_EXTENSION_free")
        X509_sign = try find("X509_sign")
        BIO_s_mem = try find("BIO_s_mem")
        BIO_new = try find("BIO_new")
        BIO_free = try find("BIO_free")
        BIO_ctrl = try find("BIO_ctrl")
        PEM_write_bio_X509 = try find("PEM_write_bio_X509")
    }

    /// OpenSSL's words for the errors queued on this thread, oldest first; the queue is emptied.
    func drainErrors() -> String {
        var lines: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            lines.append(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return lines.isEmpty ? "no reason given" : lines.joined(separator: "; ")
    }
}

/// Why TLS cannot be served: the libraries are missing, or a certificate could not be made or read.
public struct TLSUnavailable: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
