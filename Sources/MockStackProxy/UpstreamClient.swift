import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import MockStackCore
import Synchronization

/// Sends requests on to an ``UpstreamTarget`` with URLSession (libcurl on Linux: the system's
/// trust store for `https`), and hands back the answer as an ``HTTPResponse`` — on URLSession's
/// own queue, never on the caller's thread, so an event loop that forwards is never held.
///
/// - Redirects are not followed: a `3xx` comes back as it is, its `Location` under the target
///   rewritten to the proxy's path for it (``UpstreamTarget/proxied(location:)``), so the client
///   decides and its next request goes through the proxy too.
/// - `timeoutSeconds` bounds both a silence between bytes and the whole exchange.
/// - No cookies are stored, no answer is cached: each request goes up as the client sent it.
/// - An answer over `maximumBodyBytes` is given up, as a 502.
public final class UpstreamClient: Sendable {
    public let target: UpstreamTarget
    public let timeoutSeconds: Int
    public let maximumBodyBytes: Int
    private let session: URLSession
    private let tasks: UpstreamTasks

    public init(target: UpstreamTarget, timeoutSeconds: Int = 30, maximumBodyBytes: Int = 64 << 20) {
        self.target = target
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maximumBodyBytes = maximumBodyBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(self.timeoutSeconds)
        configuration.timeoutIntervalForResource = TimeInterval(self.timeoutSeconds)
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let tasks = UpstreamTasks(maximumBodyBytes: maximumBodyBytes)
        self.tasks = tasks
        session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` (its path and query under the target); `answered` is called once, on
    /// another thread, with the upstream's answer or with what went wrong.
    public func send(_ request: HTTPRequest, answered: @escaping @Sendable (Result<HTTPResponse, UpstreamFailure>) -> Void) {
        guard let url = target.url(for: request) else {
            return answered(.failure(UpstreamFailure(url: target.base + request.path, reason: "cannot be made into a URL")))
        }
        if request.headers["Upgrade"] != nil {
            return answered(.failure(UpstreamFailure(url: url.absoluteString, reason: "was not asked: protocol upgrades (WebSocket) are not proxied")))
        }
        var upstream = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: TimeInterval(timeoutSeconds))
        upstream.httpMethod = request.methodName
        for field in ForwardedHeaders.upstream(request.headers) { upstream.addValue(field.value, forHTTPHeaderField: field.name) }
        upstream.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if !request.body.isEmpty { upstream.httpBody = Data(request.body) }
        let target = target, timeout = timeoutSeconds
        let task = session.dataTask(with: upstream)
        tasks.begin(task.taskIdentifier) { result in
            switch result {
            case .success(let (head, body)):
                var headers = ForwardedHeaders.downstream(head.headerFields)
                if let location = headers["Location"] { headers.set("Location", target.proxied(location: location)) }
                answered(.success(HTTPResponse(status: head.statusCode, headers: headers, body: body)))
            case .failure(let error):
                answered(.failure(UpstreamFailure(url: url.absoluteString, reason: Self.reason(for: error, timeoutSeconds: timeout))))
            }
        }
        task.resume()
    }

    /// ``send(_:answered:)``, waited for. For start-up only (fetching a target's metadata before
    /// anything is served): it blocks the calling thread.
    public func sendAndWait(_ request: HTTPRequest) -> Result<HTTPResponse, UpstreamFailure> {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<HTTPResponse, UpstreamFailure>?>(nil)
        send(request) { answer in
            result.withLock { $0 = answer }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// A few words for what URLSession reported.
    static func reason(for error: any Error, timeoutSeconds: Int) -> String {
        if let failure = error as? UpstreamTasks.TooLarge { return "answered more than \(failure.limit) bytes" }
        guard let error = error as? URLError else { return "failed: \(error)" }
        switch error.code {
        case .timedOut: return "did not answer within \(timeoutSeconds) s"
        case .cannotConnectToHost: return "refused the connection"
        case .cannotFindHost, .dnsLookupFailed: return "names a host that cannot be found"
        case .networkConnectionLost: return "closed the connection before answering"
        case .badServerResponse: return "did not answer in HTTP"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            return "could not be reached over TLS (\(error.localizedDescription))"
        default: return "failed (\(error.localizedDescription))"
        }
    }
}

/// The upstream's status line and header fields.
struct UpstreamHead: Sendable {
    var statusCode: Int
    var headerFields: [(name: String, value: String)]
}

/// URLSession's delegate: gathers each task's body, refuses redirects, and reports the end.
final class UpstreamTasks: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Completion = @Sendable (Result<(UpstreamHead, [UInt8]), any Error>) -> Void

    /// The answer grew past the limit.
    struct TooLarge: Error { var limit: Int }

    private struct Pending {
        var completion: Completion
        var body: [UInt8] = []
        var tooLarge = false
    }

    private let pending = Mutex<[Int: Pending]>([:])
    private let maximumBodyBytes: Int

    init(maximumBodyBytes: Int) { self.maximumBodyBytes = maximumBodyBytes }

    func begin(_ id: Int, completion: @escaping Completion) {
        pending.withLock { $0[id] = Pending(completion: completion) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // Not followed: the 3xx itself is the answer.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = maximumBodyBytes
        let overLimit = pending.withLock { tasks -> Bool in
            guard var entry = tasks[dataTask.taskIdentifier], !entry.tooLarge else { return false }
            if entry.body.count + data.count > limit {
                entry.tooLarge = true
                entry.body = []
            } else {
                entry.body.append(contentsOf: data)
            }
            tasks[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.tooLarge { return entry.completion(.failure(TooLarge(limit: maximumBodyBytes))) }
        if let error { return entry.completion(.failure(error)) }
        guard let response = task.response as? HTTPURLResponse else {
            return entry.completion(.failure(URLError(.badServerResponse)))
        }
        let fields = response.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String else { return nil }
            return (name, value as? String ?? "\(value)")
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
        entry.completion(.success((UpstreamHead(statusCode: response.statusCode, headerFields: fields), entry.body)))
    }
}
