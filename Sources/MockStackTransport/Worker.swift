import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MockStackCore

/// One event loop: an `event_base`, and one evhttp per listener on it.
///
/// Everything here runs on the loop's own thread, except `base`, which other threads may use
/// only for `event_base_once` (libevent-notes §8). That is why the class is
/// `@unchecked Sendable`: the compiler cannot see the thread confinement, the code keeps it.
final class Worker: @unchecked Sendable {
    let index: Int
    let base: OpaquePointer
    let configuration: TransportConfiguration
    let logger: Logger
    private(set) var endpoints: [Endpoint] = []
    // The fields read or changed on every request skip the runtime's exclusivity check: they
    // are touched only on this loop's thread, and never while another access to them is open.

    /// Connection watchers by bufferevent address; see ``ConnectionTap``.
    @exclusivity(unchecked) var taps: [UnsafeMutableRawPointer: ConnectionTap] = [:]
    /// Sockets read to their end after a 413 (``LingeringClose``).
    var lingering: [LingeringClose] = []
    /// Where lingering sockets' bytes are read into and dropped.
    lazy var discardBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The `Date` every reply of this loop carries.
    @exclusivity(unchecked) var date = HTTPDateCache()
    /// Requests received and not yet answered (or faulted).
    @exclusivity(unchecked) private(set) var inFlight = 0
    private var drainDeadline: UInt64 = 0
    private var drainTimer: OpaquePointer?
    private var signalEvents: [OpaquePointer] = []
    private let errorRenderer: @Sendable (Int, String) -> [UInt8]

    init(index: Int, configuration: TransportConfiguration, errorRenderer: @escaping @Sendable (Int, String) -> [UInt8]) throws(TransportError) {
        _ = LibeventRuntime.ready
        guard let base = Worker.makeBase() else { throw TransportError("event_base_new_with_config failed", call: "event_base_new_with_config") }
        self.index = index
        self.base = base
        self.configuration = configuration
        self.errorRenderer = errorRenderer
        var logger = configuration.logger
        logger[metadataKey: "mockstack.loop"] = "\(index)"
        self.logger = logger
    }

    /// An event base whose epoll backend batches interest changes: evhttp turns reading off and
    /// writing on and back for every request, and without the changelist each of those is an
    /// `epoll_ctl` call of its own (four per request, measured with `strace -c`). Its timers
    /// read the precise monotonic clock: libevent's default on Linux is the coarse one, a tick
    /// of up to 4 ms, which answered `X-MockStack-Delay: 20` after 18.4 ms in a soak.
    private static func makeBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue | EVENT_BASE_FLAG_PRECISE_TIMER.rawValue))
        return event_base_new_with_config(config)
    }

    /// Binds a listener and sets up its evhttp. Runs before the loop thread starts.
    func addEndpoint(_ spec: ListenerSpec, port: Int, reusePort: Bool) throws(TransportError) -> Int {
        let listener = try SocketBinding.listen(base: base, host: configuration.host, port: port, reusePort: reusePort)
        let boundPort = SocketBinding.boundPort(of: listener)
        guard let http = evhttp_new(base) else {
            evconnlistener_free(listener)
            throw TransportError("evhttp_new failed", call: "evhttp_new")
        }
        configure(http)
        guard let bound = evhttp_bind_listener(http, listener) else {
            evhttp_free(http)
            evconnlistener_free(listener)
            throw TransportError("evhttp_bind_listener failed", call: "evhttp_bind_listener")
        }
        let backoff = AcceptBackoff(listener: listener, key: UnsafeMutableRawPointer(http), base: base, logger: logger) { [unowned self] in
            taps.count
        }
        let endpoint = Endpoint(worker: self, http: http, boundSocket: bound, spec: spec, acceptBackoff: backoff)
        endpoints.append(endpoint)
        evhttp_set_gencb(http, { request, arg in
            guard let request, let arg else { return }
            Unmanaged<Endpoint>.fromOpaque(arg).takeUnretainedValue().handle(request)
        }, Unmanaged.passUnretained(endpoint).toOpaque())
        return boundPort
    }

    private func configure(_ http: OpaquePointer) {
        // Every method evhttp knows, plus its "unknown method" bit, so that PROPFIND or FOO
        // reach the router (405 in the app's format) instead of evhttp's bare 501.
        let methods: [evhttp_cmd_type] = [EVHTTP_REQ_GET, EVHTTP_REQ_POST, EVHTTP_REQ_HEAD, EVHTTP_REQ_PUT, EVHTTP_REQ_DELETE,
                                          EVHTTP_REQ_OPTIONS, EVHTTP_REQ_TRACE, EVHTTP_REQ_CONNECT, EVHTTP_REQ_PATCH]
        evhttp_set_allowed_methods(http, UInt16(methods.reduce(0) { $0 | $1.rawValue }) | mockstack_evhttp_req_unknown)
        evhttp_set_max_body_size(http, Int(configuration.maxBodyBytes))
        evhttp_set_max_headers_size(http, Int(configuration.maxHeaderBytes))
        // One timeout for every connection of the loop, so libevent's "common timeout": a queue
        // per duration instead of its timer heap, which each request's re-armed read timeout
        // would otherwise re-sort. evhttp copies the value, and libevent knows it by its bits.
        // (A timeout of 0 or less means none to evhttp, and must not become a common one.)
        var timeout = timeval(tv_sec: configuration.timeoutSeconds, tv_usec: 0)
        if configuration.timeoutSeconds > 0, let common = event_base_init_common_timeout(base, &timeout) {
            evhttp_set_timeout_tv(http, common)
        } else {
            evhttp_set_timeout(http, Int32(configuration.timeoutSeconds))
        }
        evhttp_set_default_content_type(http, Worker.defaultContentType)
        // No EVHTTP_SERVER_LINGERING_CLOSE: it reads a whole declared body before answering
        // 413, so an absurd Content-Length hears nothing until the timeout. The 413 goes out at
        // once and the connection lingers after it instead (LingeringClose).
        evhttp_set_bevcb(http, { base, arg in
            guard let base, let arg else { return nil }
            return Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().makeBufferevent(base)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// evhttp stores this pointer without copying it, so it must live forever.
    nonisolated(unsafe) static let defaultContentType: UnsafeMutablePointer<CChar> = strdup(MediaType.json)!

    static let largestSingleWrite = 1 << 20

    private func makeBufferevent(_ base: OpaquePointer) -> OpaquePointer? {
        guard let bev = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return nil }
        // libevent writes at most 16 KiB per call by default: a 34 KB reply took three writev
        // calls (and, with TCP_NODELAY, three pushes). Up to 1 MiB goes in one.
        bufferevent_set_max_single_write(bev, Self.largestSingleWrite)
        let tap = ConnectionTap(worker: self, bufferevent: bev)
        tap.attach()
        // A stale entry at this address belonged to a connection evhttp freed without a
        // request reaching us; its buffers died with it, so replacing it is safe.
        taps[UnsafeMutableRawPointer(bev)] = tap
        return bev
    }

    /// Called when evhttp hands us a request: the tap's head counter starts over, and we ask
    /// to hear when the connection closes so the tap can go. Returns the connection's tap.
    func noteDispatch(of request: OpaquePointer) -> ConnectionTap? {
        guard let connection = evhttp_request_get_connection(request),
              let bev = evhttp_connection_get_bufferevent(connection),
              let tap = taps[UnsafeMutableRawPointer(bev)] else { return nil }
        tap.requestDispatched()
        tap.liftWriteLimit()
        watchClose(of: connection, tap: tap)
        return tap
    }

    /// Asks evhttp to tell `tap` when `connection` is about to close (its socket still open).
    func watchClose(of connection: OpaquePointer, tap: ConnectionTap) {
        guard !tap.closeCallbackInstalled else { return }
        tap.closeCallbackInstalled = true
        evhttp_connection_set_closecb(connection, { _, arg in
            guard let arg else { return }
            Unmanaged<ConnectionTap>.fromOpaque(arg).takeUnretainedValue().connectionClosing()
        }, Unmanaged.passUnretained(tap).toOpaque())
    }

    func requestStarted() { inFlight += 1 }
    func requestFinished() { inFlight -= 1 }

    func errorBody(_ status: Int, _ message: String) -> [UInt8] { errorRenderer(status, message) }

    func logRejection(status: Int, bytes: Int) {
        logger.info("rejected before routing \(status) \(bytes)B", metadata: ["mockstack.status": "\(status)"])
    }

    // MARK: - Running and stopping

    /// The loop thread's body: dispatch until asked to exit, then free everything.
    func runLoop() {
        event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
        for event in signalEvents { event_free(event) }
        signalEvents.removeAll()
        if let drainTimer { event_free(drainTimer) }
        drainTimer = nil
        for endpoint in endpoints {
            endpoint.acceptBackoff.cancel(key: UnsafeMutableRawPointer(endpoint.http))
            evhttp_free(endpoint.http)
        }
        endpoints.removeAll()
        taps.removeAll()
        for drain in lingering { drain.finish() }
        event_base_free(base)
    }

    /// Installs SIGINT/SIGTERM handlers on this loop (only one base receives signals, so only
    /// loop 0 gets them). `action` runs on the loop thread.
    func handleSignals(_ action: @escaping @Sendable () -> Void) {
        // A parent may spawn us with these signals blocked (posix_spawn keeps the spawning
        // thread's mask; libdispatch worker threads block signals), and then they would never
        // arrive. Unblock them here, before the loop threads are created and inherit the mask.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in [SIGINT, SIGTERM] {
            let box = Unmanaged.passRetained(CallbackBox(action)).toOpaque()
            if let event = event_new(base, signalNumber, Int16(EV_SIGNAL | EV_PERSIST), { _, _, arg in
                guard let arg else { return }
                Unmanaged<CallbackBox>.fromOpaque(arg).takeUnretainedValue().action()
            }, box) {
                event_add(event, nil)
                signalEvents.append(event)
            }
        }
    }

    /// Asks the loop, from any thread, to stop accepting and exit once in-flight replies are
    /// flushed or the grace period is over.
    func requestDrain() {
        runOnLoop { $0.beginDrain() }
    }

    /// Whether a graceful stop has begun.
    var isDraining: Bool { drainTimer != nil }

    private func beginDrain() {
        guard drainTimer == nil else { return }
        for endpoint in endpoints {
            endpoint.acceptBackoff.cancel(key: UnsafeMutableRawPointer(endpoint.http))
            evhttp_del_accept_socket(endpoint.http, endpoint.boundSocket)
        }
        drainDeadline = Clock.nowNanoseconds() + UInt64(configuration.shutdownGraceMilliseconds) * 1_000_000
        drainTimer = event_new(base, -1, Int16(EV_PERSIST), { _, _, arg in
            guard let arg else { return }
            Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().checkDrained()
        }, Unmanaged.passUnretained(self).toOpaque())
        var interval = timeval(tv_sec: 0, tv_usec: 2_000)
        if let drainTimer { event_add(drainTimer, &interval) }
        checkDrained()
    }

    private func checkDrained() {
        if inFlight <= 0 || Clock.nowNanoseconds() >= drainDeadline {
            if inFlight > 0 { logger.warning("stopping with \(inFlight) replies still pending after the grace period") }
            // loopexit (not loopbreak) lets callbacks already queued, like a last write, finish.
            event_base_loopexit(base, nil)
        }
    }

    // MARK: - Timers

    /// Runs `action` on this loop after `milliseconds` (0 = next turn). Safe from any thread.
    func runOnLoop(after milliseconds: Int = 0, _ action: @escaping (Worker) -> Void) {
        let box = Unmanaged.passRetained(DeferredAction(worker: self, action: action)).toOpaque()
        var delay = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
        let status = event_base_once(base, -1, Int16(EV_TIMEOUT), { _, _, arg in
            guard let arg else { return }
            let deferred = Unmanaged<DeferredAction>.fromOpaque(arg).takeRetainedValue()
            deferred.action(deferred.worker)
        }, box, &delay)
        if status != 0 {
            Unmanaged<DeferredAction>.fromOpaque(box).release()
            logger.error("event_base_once failed; a deferred reply was dropped")
        }
    }
}

/// A closure carried through a C `void *` for a one-shot timer.
private final class DeferredAction: @unchecked Sendable {
    let worker: Worker
    let action: (Worker) -> Void

    init(worker: Worker, action: @escaping (Worker) -> Void) {
        self.worker = worker
        self.action = action
    }
}

/// A closure carried through a C `void *` for a persistent event (freed with the process).
private final class CallbackBox {
    let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
}

enum Clock {
    static func nowNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Whole seconds of a monotonic clock, read as cheaply as the system allows (the coarse
    /// clock on Linux: no system call, a few milliseconds of resolution).
    static func coarseSeconds() -> Int {
        var spec = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        #else
        clock_gettime(CLOCK_MONOTONIC, &spec)
        #endif
        return Int(spec.tv_sec)
    }
}
