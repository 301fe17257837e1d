import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libcurl, opened with `dlopen` and its functions resolved with `dlsym` (CCurl's
/// `mockstack_curl` table): mockstack does not link it, so a server that forwards nothing never
/// loads it, nor the TLS, compression and name-service libraries it brings.
///
/// `@unchecked Sendable`: the table is written once, before the value is made, and only read
/// after; libcurl's functions are called on the upstream thread (``LibcurlClient``), except
/// `curl_multi_wakeup`, which any thread may call.
final class Libcurl: @unchecked Sendable {
    /// The name or path it was opened by.
    let name: String
    /// Kept for the process's life: an opened library is never closed.
    let api: UnsafePointer<mockstack_curl>

    private init(name: String, api: UnsafePointer<mockstack_curl>) {
        self.name = name
        self.api = api
    }

    /// What dlopen looks for when nothing else is asked: the shared object a libcurl4 package installs.
    #if canImport(Darwin)
    static let defaultName = "libcurl.4.dylib"
    static let installHint = "install curl"
    #else
    static let defaultName = "libcurl.so.4"
    static let installHint = "install libcurl4"
    #endif

    /// Opens `name` (a file name the dynamic loader looks up, or a path), resolves the functions
    /// the client calls and initialises libcurl. Call once per name (``LibcurlClient`` keeps what
    /// it opened): `curl_global_init` is not for calling concurrently.
    static func open(_ name: String) -> Result<Libcurl, LibcurlUnavailable> {
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let detail = dlerror().map { String(cString: $0) } ?? "no reason given"
            return .failure(
                LibcurlUnavailable(message: "libcurl (\(name)) could not be loaded: \(installHint)", detail: detail))
        }
        let api = UnsafeMutablePointer<mockstack_curl>.allocate(capacity: 1)
        api.initialize(to: mockstack_curl())
        if let missing = mockstack_curl_resolve(library, api) {
            let function = String(cString: missing)
            api.deallocate()
            dlclose(library)
            return .failure(
                LibcurlUnavailable(
                    message: "libcurl (\(name)) has no \(function): version 7.68 or later is needed",
                    detail: "dlsym(\(function)) found nothing"))
        }
        let initialised = mockstack_curl_global_init(api)
        guard initialised == CURLE_OK else {
            let reason = String(cString: mockstack_curl_easy_strerror(api, initialised))
            api.deallocate()
            return .failure(
                LibcurlUnavailable(
                    message: "libcurl (\(name)) could not be initialised: \(reason)",
                    detail: "curl_global_init: \(reason)"))
        }
        return .success(Libcurl(name: name, api: UnsafePointer(api)))
    }

    /// libcurl's words for a transfer's result.
    func describe(_ code: CURLcode) -> String { String(cString: mockstack_curl_easy_strerror(api, code)) }

    /// libcurl's words for a multi handle's result.
    func describe(_ code: CURLMcode) -> String { String(cString: mockstack_curl_multi_strerror(api, code)) }
}
