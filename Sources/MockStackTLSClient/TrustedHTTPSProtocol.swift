public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `URLProtocol` for the HTTPS ports whose CA a test trusts: FoundationNetworking on Linux
/// asks no delegate about server certificates and reads only the system's store, so a
/// `URLSession` given this class (``trust(authorityAt:host:port:)`` first) makes those requests
/// with libcurl, trusting that CA for that host and port alone. Every other request is left to
/// the session's own protocols, checked as usual.
///
/// The answer streams as it arrives; redirects are passed on as answers, not followed; cancelling
/// the task ends the transfer within about a second.
public final class TrustedHTTPSProtocol: URLProtocol {
    /// `host:port` → the CA (PEM) trusted there, or where to fetch it at the first request.
    private static let trusted = Mutex<[String: Authority]>([:])

    private enum Authority {
        case pem([UInt8])
        case servedAt(URL)
        /// Fetched from there: a server started later on the same port has another, fetched anew
        /// when its certificate is refused.
        case fetched([UInt8], from: URL)
    }
    /// Set when the task is stopped; read by the transfer's thread.
    private let stopped = Atomic<Bool>(false)

    /// Trusts `authorityPEM` for `https://host:port` from now on, in every session that has this
    /// class among its protocols.
    public static func trust(authorityPEM: String, host: String, port: Int) {
        trusted.withLock { $0[key(host: host, port: port)] = .pem(Array(authorityPEM.utf8)) }
    }

    /// Trusts the CA served at `authorityURL` (over plain HTTP: a mockstack's
    /// `/__mockstack/tls/ca.pem`) for `https://host:port`, fetched at the first request there.
    public static func trust(authorityAt authorityURL: URL, host: String, port: Int) {
        trusted.withLock { trusted in
            let key = key(host: host, port: port)
            switch trusted[key] {
            case .pem?: return
            case .fetched(_, let address)? where address == authorityURL: return
            default: trusted[key] = .servedAt(authorityURL)
            }
        }
    }

    private static func key(host: String, port: Int) -> String { host.lowercased() + ":\(port)" }

    private static func isTrusted(_ url: URL?) -> Bool {
        guard let url, url.scheme?.lowercased() == "https", let host = url.host else { return false }
        return trusted.withLock { $0[key(host: host, port: url.port ?? 443)] != nil }
    }

    /// The CA for `url`'s host and port, fetched first when only its address is known (or,
    /// with `refetching`, when it was fetched before).
    private static func authority(
        for url: URL, refetching: Bool = false
    ) -> Result<(pem: [UInt8], fetched: Bool), TrustedTransferError> {
        guard let host = url.host else { return .failure(TrustedTransferError("\(url) has no host")) }
        let key = key(host: host, port: url.port ?? 443)
        var entry = trusted.withLock({ $0[key] })
        if refetching, case .fetched(_, let address)? = entry { entry = .servedAt(address) }
        switch entry {
        case .pem(let pem): return .success((pem, false))
        case .fetched(let pem, _): return .success((pem, true))
        case nil: return .failure(TrustedTransferError("no CA is trusted for \(key)"))
        case .servedAt(let address):
            var status = 0
            var pem: [UInt8] = []
            let fetch = TrustedTransfer(
                method: "GET", url: address.absoluteString, headers: [], body: nil, authority: [],
                timeoutMilliseconds: 10_000)
            if let failure = fetch.run(head: { code, _ in status = code }, data: { pem += $0 }, cancelled: { false }) {
                return .failure(failure)
            }
            guard status == 200 else {
                return .failure(TrustedTransferError("\(address) answered \(status), not the CA"))
            }
            trusted.withLock { $0[key] = .fetched(pem, from: address) }
            return .success((pem, true))
        }
    }

    public override class func canInit(with request: URLRequest) -> Bool { isTrusted(request.url) }

    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    public override func startLoading() {
        guard let url = request.url else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let headers = (request.allHTTPHeaderFields ?? [:]).map { (name: $0.key, value: $0.value) }
            .sorted { $0.name < $1.name }
        let method = request.httpMethod ?? "GET"
        let body = request.httpBody.map { Array($0) }
        let timeout = Int(max(1, request.timeoutInterval) * 1000)
        // URLProtocol is not Sendable; its client is meant to be told from the loading thread,
        // and only this thread tells it anything until the transfer ends.
        let loading = Unchecked(self)
        Thread.detachNewThread {
            loading.value.load(url: url, method: method, headers: headers, body: body, timeout: timeout)
        }
    }

    private func load(url: URL, method: String, headers: [(name: String, value: String)], body: [UInt8]?, timeout: Int)
    {
        var refetching = false
        while true {
            switch Self.authority(for: url, refetching: refetching) {
            case .failure(let failure):
                return fail(failure, code: .serverCertificateUntrusted)
            case .success(let authority):
                let transfer = TrustedTransfer(
                    method: method, url: url.absoluteString, headers: headers, body: body, authority: authority.pem,
                    timeoutMilliseconds: timeout)
                let outcome = run(transfer, url: url)
                // A CA fetched for an earlier server on this port: fetched again, once.
                if case .refused = outcome, authority.fetched, !refetching {
                    refetching = true
                    continue
                }
                return finish(outcome)
            }
        }
    }

    /// How a transfer ended: whole, failed, or with the server's certificate refused before
    /// any answer.
    private enum Outcome {
        case finished
        case failed(TrustedTransferError)
        case refused(TrustedTransferError)
    }

    private func finish(_ outcome: Outcome) {
        guard !stopped.load(ordering: .relaxed) else { return }
        switch outcome {
        case .finished: client?.urlProtocolDidFinishLoading(self)
        case .failed(let failure), .refused(let failure): fail(failure, code: nil)
        }
    }

    /// Tells the client why, as a `URLError`: 60, the certificate refused
    /// (CURLE_PEER_FAILED_VERIFICATION); 28, timed out; 7, no connection.
    private func fail(_ failure: TrustedTransferError, code given: URLError.Code?) {
        let code: URLError.Code =
            given
            ?? {
                switch failure.code {
                case 60: .serverCertificateUntrusted
                case 28: .timedOut
                case 7: .cannotConnectToHost
                default: .secureConnectionFailed
                }
            }()
        client?.urlProtocol(
            self, didFailWithError: URLError(code, userInfo: [NSLocalizedDescriptionKey: failure.description]))
    }

    /// A value handed to another thread that the compiler cannot see is used by one at a time.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Runs the transfer, handing the client the head and the body as they come.
    private func run(_ transfer: TrustedTransfer, url: URL) -> Outcome {
        var answered = false
        let failure = transfer.run(
            head: { [self] status, fields in
                answered = true
                var headerFields: [String: String] = [:]
                for field in fields {
                    headerFields[field.name] = headerFields[field.name].map { $0 + ", " + field.value } ?? field.value
                }
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headerFields)!
                client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            },
            data: { [self] bytes in client?.urlProtocol(self, didLoad: Data(bytes)) },
            cancelled: { [self] in stopped.load(ordering: .relaxed) })
        guard let failure else { return .finished }
        return answered || failure.code != 60 ? .failed(failure) : .refused(failure)
    }

    public override func stopLoading() { stopped.store(true, ordering: .relaxed) }
}
