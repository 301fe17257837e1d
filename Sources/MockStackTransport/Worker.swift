import CLibevent
import Logging
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One event loop: an `event_base`, a listener per endpoint on it, and the connections those
/// accepted.
///
/// Everything here runs on the loop's own thread, except `base`, which other threads may use
/// only for `event_base_once` (safe across threads, with the locking ``LibeventRuntime`` turns
/// on, and it wakes the loop). That is why the class is
/// `@unchecked Sendable`: the compiler cannot see the thread confinement, the code keeps it.
final class Worker: @unchecked Sendable {
    let index: Int
    let base: OpaquePointer
    let configuration: TransportConfiguration
    let logger: Logger
    /// Whether each request is logged (`info`), read once: asking means copying the logger, on
    /// every request.
    let logsRequests: Bool
    private(set) var endpoints: [Endpoint] = []
    // The fields read or changed on every request skip the runtime's exclusivity check: they
    // are touched only on this loop's thread, and never while another access to them is open.

    /// The open connections, from accept to close.
    @exclusivity(unchecked) var connections: [ObjectIdentifier: HTTPConnection] = [:]
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
    /// Whether a graceful stop has begun.
    var isDraining: Bool { drainTimer != nil }
    private var signalEvents: [OpaquePointer] = []
    /// The event watching ``TransportConfiguration/stopsAtEndOfInput``, if any.
    var inputWatch: OpaquePointer?
    /// Upgraded streams with output or a close for this loop (from any thread).
    let streamService = StreamServiceQueue()
    /// The timer of ``startIdleSweep()``.
    var idleTimer: OpaquePointer?
    private let errorRenderer: @Sendable (Int, String) -> [UInt8]

    init(
        index: Int, configuration: TransportConfiguration, errorRenderer: @escaping @Sendable (Int, String) -> [UInt8]
    ) throws(TransportError) {
        _ = LibeventRuntime.ready
        guard let base = Worker.makeBase() else {
            throw TransportError("event_base_new_with_config failed", call: "event_base_new_with_config")
        }
        self.index = index
        self.base = base
        self.configuration = configuration
        self.errorRenderer = errorRenderer
        var logger = configuration.logger
        logger[metadataKey: "mockstack.loop"] = "\(index)"
        self.logger = logger
        logsRequests = logger.logLevel <= .info
        guard streamService.attach(to: base) else {
            event_base_free(base)
            throw TransportError("event_new failed", call: "event_new")
        }
        guard startIdleSweep() else {
            streamService.free()
            event_base_free(base)
            throw TransportError("event_new failed", call: "event_new")
        }
    }

    /// An event base whose epoll backend batches interest changes (a bufferevent turns writing
    /// on and off around each answer, and without the changelist each of those is an
    /// `epoll_ctl` call of its own). Its timers read the precise monotonic clock: libevent's
    /// default on Linux is the coarse one, whose tick made a short `X-MockStack-Delay` answer
    /// noticeably early.
    private static func makeBase() -> OpaquePointer? {
        guard let config = event_config_new() else { return nil }
        defer { event_config_free(config) }
        event_config_set_flag(
            config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue | EVENT_BASE_FLAG_PRECISE_TIMER.rawValue))
        return event_base_new_with_config(config)
    }

    /// Binds a listener for `spec` on this loop. Runs before the loop thread starts.
    /// - Returns: the port it got.
    func addEndpoint(_ spec: ListenerSpec, port: Int, reusePort: Bool) throws(TransportError) -> Int {
        let endpoint = try Endpoint(worker: self, spec: spec, port: port, reusePort: reusePort)
        endpoints.append(endpoint)
        return endpoint.listener.map(SocketBinding.boundPort(of:)) ?? port
    }

    static let largestSingleWrite = 1 << 20

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
        if let inputWatch { event_free(inputWatch) }
        inputWatch = nil
        if let drainTimer { event_free(drainTimer) }
        drainTimer = nil
        if let idleTimer { event_free(idleTimer) }
        idleTimer = nil
        for endpoint in endpoints { endpoint.stopListening() }
        endpoints.removeAll()
        for connection in Array(connections.values) { connection.close() }
        for drain in lingering { drain.finish() }
        streamService.free()
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
            if let event = event_new(
                base, signalNumber, Int16(EV_SIGNAL | EV_PERSIST),
                { _, _, arg in
                    guard let arg else { return }
                    CallbackBox.from(arg).action()
                }, box)
            {
                logger.succeeded(
                    event_add(event, nil), "event_add", level: .error,
                    "signal \(signalNumber) will end the process without a graceful stop")
                signalEvents.append(event)
            }
        }
    }

    /// Asks the loop, from any thread, to stop accepting and exit once in-flight replies are
    /// flushed or the grace period is over.
    func requestDrain() {
        runOnLoop { $0.beginDrain() }
    }

    private func beginDrain() {
        guard drainTimer == nil else { return }
        for endpoint in endpoints { endpoint.stopListening() }
        for connection in Array(connections.values) {
            // Nothing is owed to a connection waiting for a request, or held by a hang.
            if connection.isIdle || connection.isHeld {
                connection.close()
                continue
            }
            // Nothing more will answer a request waiting for a deferred answer: it hears so now.
            connection.stopAwaitingAnswer()
            // Upgraded connections say goodbye in their own protocol, then close.
            connection.upgradedStream?.serverStopping()
        }
        drainDeadline = MonotonicClock.nanoseconds() + UInt64(configuration.shutdownGraceMilliseconds) * 1_000_000
        drainTimer = event_new(
            base, -1, Int16(EV_PERSIST),
            { _, _, arg in
                guard let arg else { return }
                Worker.from(arg).checkDrained()
            }, Unmanaged.passUnretained(self).toOpaque())
        var interval = timeval(tv_sec: 0, tv_usec: 2_000)
        // Without the timer that watches the drain, the loop ends now rather than never.
        guard let drainTimer,
            logger.succeeded(
                event_add(drainTimer, &interval), "event_add", level: .error,
                "stopping without waiting for replies in flight")
        else {
            return exitLoop()
        }
        checkDrained()
    }

    private func checkDrained() {
        // Done when every answer is made and written out, or at the deadline.
        if (inFlight <= 0 && !connections.values.contains(where: \.isSending))
            || MonotonicClock.nanoseconds() >= drainDeadline
        {
            if inFlight > 0 { logger.warning("stopping with \(inFlight) replies still pending after the grace period") }
            exitLoop()
        }
    }

    /// Ends the loop once the callbacks already queued, like a last write, have run (loopexit,
    /// not loopbreak).
    func exitLoop() {
        logger.succeeded(
            event_base_loopexit(base, nil), "event_base_loopexit", level: .critical, "the loop does not end")
    }

    /// The worker behind a C callback's argument: its timers' and its listeners' (the server
    /// keeps its workers until their loops have ended).
    static func from(_ arg: UnsafeMutableRawPointer) -> Worker {
        Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue()
    }
}
