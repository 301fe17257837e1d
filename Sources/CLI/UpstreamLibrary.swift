import MockStack
import MockStackUpstream

/// The libcurl `serve --proxy-unmatched` and `record` forward with: `MOCKSTACK_LIBCURL`'s (a
/// file name or a path), else the system's (`libcurl.so.4`; `libcurl.4.dylib` on macOS).
enum UpstreamLibrary {
    /// The environment variable that names the library.
    static let environmentName = "MOCKSTACK_LIBCURL"

    /// The library to open, given `environmentName`'s value (nil when it is not set).
    static func chosen(_ named: String?) -> String {
        named.flatMap { $0.isEmpty ? nil : $0 } ?? UpstreamClient.defaultLibrary
    }

    /// Opens `library` now, before anything is served: a server that would forward with no
    /// client stops here with one line saying what to install (exit status 2), not with a 502 later.
    static func open(_ library: String, for option: String) throws(ExitStatus) {
        guard let missing = UpstreamClient.libraryProblem(library) else { return }
        printError("mockstack: \(option) needs libcurl: \(missing.message) (\(missing.detail))")
        throw ExitStatus(2)
    }
}
