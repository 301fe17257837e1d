import Dispatch
public import MockStackCore
public import MockStackUpstream
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends requests on to an ``UpstreamTarget`` with MockStackUpstream's ``LibcurlClient`` (libcurl,
/// opened at the first request: the system's trust store for `https`), and hands back the
/// answer as an ``HTTPResponse`` — on the client's own thread, never on the caller's, so an
/// event loop that forwards is never held.
///
/// - Redirects are not followed: a `3xx` comes back as it is, its `Location` under the target
///   rewritten to the proxy's path for it (``UpstreamTarget/proxied(location:)``), so the client
///   decides and its next request goes through the proxy too.
/// - `timeoutSeconds` bounds the whole exchange, connecting included.
/// - No cookies are kept, no answer is cached, the upstream is asked for `identity` encoding:
///   each request goes up as the client sent it, and what comes back is forwarded as it came.
/// - A path with a `.` or `..` segment is not sent (a 400): it could leave the target's base path.
/// - An answer whose status is not final (`101`, any 1xx) is not passed on (a 502); its header
///   fields cross less the hop-by-hop ones and those its `Connection` names, and without a
///   `Content-Type` of the proxy's own when it had none.
/// - An answer over `maximumBodyBytes` is given up, as a 502.
/// - Without libcurl (``libraryProblem``), every request is a 502 naming what to install.
public final class UpstreamClient: Sendable {
    public let target: UpstreamTarget
    public let timeoutSeconds: Int
    public let maximumBodyBytes: Int
    /// The libcurl opened: a file name the dynamic loader looks up, or a path.
    public let library: String

    /// The libcurl opened when no other is asked for: `libcurl.so.4` (`libcurl.4.dylib` on macOS).
    public static var defaultLibrary: String { LibcurlClient.defaultLibrary }

    /// - Parameter maximumBodyBytes: the longest answer forwarded (16 MiB, as the server's own
    ///   `--max-body-bytes`); every answer arriving at once holds at most
    ///   ``LibcurlClient/answerBytesHeldAtOnce`` together.
    public init(
        target: UpstreamTarget, timeoutSeconds: Int = 30, maximumBodyBytes: Int = 16 << 20,
        library: String = defaultLibrary
    ) {
        self.target = target
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maximumBodyBytes = maximumBodyBytes
        self.library = library
    }

    /// Opens libcurl now, as the first request would: nil when it can be used, else what is
    /// missing (`libcurl (libcurl.so.4) could not be loaded: install libcurl4`). What `record`
    /// and `serve --proxy-unmatched` ask at start.
    public var libraryProblem: LibcurlUnavailable? { Self.libraryProblem(library) }

    /// ``libraryProblem`` for `library`, before there is a target.
    public static func libraryProblem(_ library: String) -> LibcurlUnavailable? {
        if case .failure(let missing) = LibcurlClient.opened(library: library) { return missing }
        return nil
    }

    /// Sends `request` (its path and query under the target); `answered` is called once, on
    /// another thread, with the upstream's answer or with what went wrong.
    public func send(
        _ request: HTTPRequest, answered: @escaping @Sendable (Result<HTTPResponse, UpstreamFailure>) -> Void
    ) {
        guard let url = target.url(for: request)?.absoluteString else {
            return answered(
                .failure(UpstreamFailure(url: target.base + request.path, reason: "cannot be made into a URL")))
        }
        if UpstreamTarget.hasDotSegment(request.path) {
            return answered(
                .failure(
                    UpstreamFailure(
                        url: url,
                        reason: "was not asked: the path has a '.' or '..' segment, which the proxy "
                            + "does not forward (it could leave the target's base path)", status: 400)))
        }
        if request.headers["Upgrade"] != nil {
            return answered(
                .failure(
                    UpstreamFailure(url: url, reason: "was not asked: protocol upgrades (WebSocket) are not proxied")))
        }
        let client: LibcurlClient
        switch LibcurlClient.opened(library: library) {
        case .success(let opened): client = opened
        case .failure(let missing):
            return answered(.failure(UpstreamFailure(url: url, reason: "was not asked: \(missing.message)")))
        }
        let upstream = UpstreamRequest(
            method: request.methodName, url: url, headerFields: ForwardedHeaders.upstream(request.headers),
            body: request.body, timeoutSeconds: timeoutSeconds, maximumBodyBytes: maximumBodyBytes)
        let target = target
        client.send(upstream) { result in
            switch result {
            case .success(let reply):
                // A 1xx as the last answer (libcurl passes a `101` on as one) is no answer to
                // forward: the client would wait for the real one after it, or stop speaking HTTP.
                guard HTTPStatus.finalStatuses.contains(reply.status) else {
                    let status = "\(reply.status) \(HTTPStatus.phrase(for: reply.status))"
                    return answered(
                        .failure(
                            UpstreamFailure(
                                url: url,
                                reason: "answered \(status), which is not a final answer the proxy can pass on")))
                }
                var headers = ForwardedHeaders.downstream(reply.headerFields)
                if let location = headers["Location"] { headers.set("Location", target.proxied(location: location)) }
                var response = HTTPResponse(status: reply.status, headers: headers, body: reply.body)
                // The upstream's fields as they came: no JSON type where it sent none.
                response.defaultsContentType = false
                answered(.success(response))
            case .failure(let failure):
                answered(.failure(UpstreamFailure(url: url, reason: failure.reason)))
            }
        }
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
}
