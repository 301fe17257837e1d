import CLibcurlEasy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libcurl's easy interface, found with `dlopen`: on Linux FoundationNetworking has loaded it
/// already, so this adds no library to a test process.
///
/// `@unchecked Sendable`: the table is filled once, before the value exists, and only read.
final class LibcurlEasy: @unchecked Sendable {
    let api: UnsafePointer<mockstack_easy>

    private init(api: UnsafePointer<mockstack_easy>) { self.api = api }

    /// The library, or why there is none; opened at the first use.
    static let shared: Result<LibcurlEasy, TrustedTransferError> = {
        #if canImport(Darwin)
        let name = "libcurl.4.dylib"
        #else
        let name = "libcurl.so.4"
        #endif
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "no reason given"
            return .failure(TrustedTransferError("libcurl (\(name)) could not be loaded: \(reason)"))
        }
        let api = UnsafeMutablePointer<mockstack_easy>.allocate(capacity: 1)
        api.initialize(to: mockstack_easy())
        if let missing = mockstack_easy_resolve(library, api) {
            api.deallocate()
            return .failure(TrustedTransferError("libcurl (\(name)) has no \(String(cString: missing))"))
        }
        return .success(LibcurlEasy(api: UnsafePointer(api)))
    }()

    func describe(_ code: Int32) -> String {
        api.pointee.strerror(code).map { String(cString: $0) } ?? "libcurl error \(code)"
    }
}

/// A request that could not be made or answered, in libcurl's words.
public struct TrustedTransferError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// libcurl's result code, when libcurl gave one (60: the certificate was refused).
    public var code: Int32?
    init(_ description: String, code: Int32? = nil) {
        self.description = description
        self.code = code
    }
}
