import CCurl
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The upstream client (`serve --proxy-unmatched`, `mockstack record`): HTTP and HTTPS
/// requests on libcurl — the system's trust store, its timeouts, redirects returned as they
/// are, no cookies. libcurl is not linked: it is opened (``opened(library:)``) when the first
/// request is forwarded, so a server that forwards nothing pays nothing for it at start.
///
/// One thread of its own runs every transfer on one curl multi handle: it sleeps in
/// `curl_multi_poll` until a socket, a timeout or ``send(_:completion:)`` (`curl_multi_wakeup`)
/// wakes it. A thread rather than libcurl's socket API on the loops: forwarding is a test
/// convenience, not the request path, and on its own thread the TLS handshakes, name lookups
/// and the recorder's file writes never hold a loop that serves, while the loops carry no
/// libcurl timers or socket events. The multi handle keeps connections to the upstream open
/// between requests.
///
/// `@unchecked Sendable`: ``send(_:completion:)`` only queues under a lock and wakes the
/// thread; the multi handle and the running transfers are touched on the thread alone.
public final class LibcurlClient: @unchecked Sendable {
    /// What is opened when nothing else is asked: `libcurl.so.4` (`libcurl.4.dylib` on macOS).
    public static var defaultLibrary: String { Libcurl.defaultName }

    /// One client per library asked for, opened at the first ask, or why it could not be.
    private static let opened = Mutex<[String: Result<LibcurlClient, LibcurlUnavailable>]>([:])

    private let libcurl: Libcurl
    private let multi: UnsafeMutableRawPointer
    private let logger: Logger
    private let queued = Mutex<[(UpstreamRequest, @Sendable (Result<UpstreamReply, UpstreamTransferError>) -> Void)]>([]
    )
    /// The answers' bytes held while they arrive, every transfer together; on the thread only.
    private let budget = AnswerBudget(limit: LibcurlClient.answerBytesHeldAtOnce)

    /// The most bytes of answers the client holds while they arrive, all transfers together
    /// (64 MiB): past it, the answer that would cross it is given up
    /// (``UpstreamTransferError/Kind/tooLarge``), so many slow or endless upstreams cannot grow
    /// the process without end. Each answer has its own bound too (``UpstreamRequest/maximumBodyBytes``).
    public static let answerBytesHeldAtOnce = 64 << 20
    /// The transfers libcurl runs, by easy handle; on the thread only.
    private var running: [UnsafeMutableRawPointer: LibcurlTransfer] = [:]

    private init(libcurl: Libcurl, multi: UnsafeMutableRawPointer, logger: Logger) {
        self.libcurl = libcurl
        self.multi = multi
        self.logger = logger
    }

    /// The client on `library` (a file name the dynamic loader looks up, or a path): opened,
    /// with its thread started, at the first call for that library, and the same one after.
    /// - Returns: the client, or what is missing (libcurl not installed, or older than 7.68).
    public static func opened(library: String = defaultLibrary) -> Result<LibcurlClient, LibcurlUnavailable> {
        opened.withLock { clients in
            if let known = clients[library] { return known }
            let made = Libcurl.open(library).flatMap(start)
            clients[library] = made
            return made
        }
    }

    /// Makes the multi handle and starts the thread that runs it.
    private static func start(_ libcurl: Libcurl) -> Result<LibcurlClient, LibcurlUnavailable> {
        guard let multi = mockstack_curl_multi_init(libcurl.api) else {
            return .failure(
                LibcurlUnavailable(
                    message: "libcurl (\(libcurl.name)) could not make a multi handle", detail: "curl_multi_init"))
        }
        let client = LibcurlClient(libcurl: libcurl, multi: multi, logger: Logger(label: "mockstack.upstream"))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                LibcurlClient.handedOver(argument).run()
                return nil
            }, Unmanaged.passRetained(client).toOpaque())
        guard status == 0 else {
            return .failure(
                LibcurlUnavailable(
                    message: "the upstream client's thread could not be started", detail: "pthread_create: \(status)"))
        }
        pthread_detach(thread)
        return .success(client)
    }

    /// The client a thread was started with, its reference (passed retained) taken back: the
    /// thread owns it for the process's life.
    private static func handedOver(_ argument: UnsafeMutableRawPointer) -> LibcurlClient {
        Unmanaged<LibcurlClient>.fromOpaque(argument).takeRetainedValue()
    }

    /// Sends `request`; `completion` is called once, on the client's thread, with the answer
    /// or why there is none. Never blocks: safe on an event loop.
    public func send(
        _ request: UpstreamRequest,
        completion: @escaping @Sendable (Result<UpstreamReply, UpstreamTransferError>) -> Void
    ) {
        queued.withLock { $0.append((request, completion)) }
        logger.succeeded(
            mockstack_curl_multi_wakeup(libcurl.api, multi), "curl_multi_wakeup", libcurl,
            "the request waits for the client's next turn")
    }

    /// The thread: starts what was queued, lets libcurl move every transfer on, ends those
    /// that are done, and sleeps until there is more to do.
    private func run() {
        while true {
            let starting = queued.withLock { transfers in
                defer { transfers = [] }
                return transfers
            }
            for (request, completion) in starting {
                begin(LibcurlTransfer(request: request, budget: budget, completion: completion))
            }
            var stillRunning: Int32 = 0
            logger.succeeded(
                mockstack_curl_multi_perform(libcurl.api, multi, &stillRunning), "curl_multi_perform", libcurl)
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while mockstack_curl_next_done(libcurl.api, multi, &easy, &code) != 0, let done = easy {
                end(done, code)
            }
            // libcurl shortens the wait to its next timeout while transfers run; idle, the thread
            // wakes every ten seconds at most (a failed wake-up delays a request no longer).
            if !logger.succeeded(mockstack_curl_multi_poll(libcurl.api, multi, 10_000), "curl_multi_poll", libcurl) {
                // Not a busy loop when polling itself fails.
                usleep(100_000)
            }
        }
    }

    /// Hands `transfer` to libcurl, or ends it with why it could not start.
    private func begin(_ transfer: LibcurlTransfer) {
        let easy: UnsafeMutableRawPointer
        do {
            easy = try transfer.prepare(libcurl, logger: logger)
        } catch {
            transfer.free(libcurl)
            return transfer.completion(.failure(error))
        }
        guard
            logger.succeeded(
                mockstack_curl_multi_add_handle(libcurl.api, multi, easy), "curl_multi_add_handle", libcurl)
        else {
            transfer.free(libcurl)
            return transfer.completion(
                .failure(UpstreamTransferError(.failed, "was not asked: libcurl would not take the transfer")))
        }
        running[easy] = transfer
    }

    /// A transfer libcurl has ended with `code`: its handle freed, its completion told.
    private func end(_ easy: UnsafeMutableRawPointer, _ code: CURLcode) {
        guard let transfer = running.removeValue(forKey: easy) else { return }
        let outcome = transfer.outcome(code, libcurl)
        logger.succeeded(
            mockstack_curl_multi_remove_handle(libcurl.api, multi, easy), "curl_multi_remove_handle", libcurl)
        transfer.free(libcurl)
        transfer.completion(outcome)
    }
}
