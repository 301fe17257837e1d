import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError.Code {
    /// What URLSession reports for an answer broken by each fault on Linux
    /// (swift-corelibs-foundation over libcurl: a reset, "empty reply", "partial file", a chunk
    /// error, and HTTP/0.9 refused). `FaultTests.urlSessionSeesEachFault` pins each.
    static let linuxFaultCodes: [String: URLError.Code] = [
        "reset": .networkConnectionLost,
        "empty": .badServerResponse,
        "truncate": .unknown,
        "malformed-chunk": .unknown,
        "random-then-close": .unsupportedURL,
    ]
}

extension URLError {
    /// Whether this is what URLSession reports for an answer `fault` broke on purpose: on Linux
    /// exactly the fault's code; on Darwin, whose codes differ, any error but a refused
    /// connection. Either way a server that never accepted the connection cannot pass for one
    /// that answered with the fault.
    func isFault(_ fault: String) -> Bool {
        #if canImport(FoundationNetworking)
        code == URLError.Code.linuxFaultCodes[fault]
        #else
        code != .cannotConnectToHost
        #endif
    }
}
