import CLibevent
import Dispatch
public import MockStackCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libevent: one event loop per thread, each with its own listener per
/// port (sharing it through `SO_REUSEPORT` when there is more than one loop), its connections
/// on bufferevents, and requests read by ``HTTP1RequestParser``.
///
/// Handlers run synchronously on the loop threads; there is no hop through Swift tasks on the
/// request path (docs/architecture.md#the-request-path).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(), listeners: [ListenerSpec(label: "main", port: 0, responder: app)])
/// let bound = try server.start()      // sockets accept from here on
/// // … bound[0].port …
/// server.stop()                       // from any thread; graceful
/// server.wait()                       // joins the loops
/// ```
public final class HTTPServer: Sendable {
    public let configuration: TransportConfiguration
    public let listeners: [ListenerSpec]
    private let errorRenderer: @Sendable (Int, String) -> [UInt8]
    private let state = Mutex<State>(.idle)

    private enum State {
        case idle
        case running(workers: [Worker], threads: [pthread_t])
        case stopping(threads: [pthread_t])
        case stopped
    }

    /// - Parameters:
    ///   - configuration: binding, limits and timeouts.
    ///   - listeners: the ports to open; the first is the main one.
    ///   - errorRenderer: renders the transport's own error answers (413, 431, 400 for a
    ///     malformed request) as a body; defaults to ``PlainError``'s JSON.
    public init(
        configuration: TransportConfiguration,
        listeners: [ListenerSpec],
        errorRenderer: @escaping @Sendable (Int, String) -> [UInt8] = PlainError.body(status:message:)
    ) {
        self.configuration = configuration
        self.listeners = listeners
        self.errorRenderer = errorRenderer
    }

    /// Binds every listener on every loop and starts the loop threads. When it returns, the
    /// sockets accept connections.
    /// - Returns: the listeners with the ports they got, in the order given.
    /// - Throws: ``TransportError`` when a port cannot be bound (nothing is left running).
    @discardableResult
    public func start() throws(TransportError) -> [BoundListener] {
        let threadCount = max(1, configuration.threads)
        let workers = try (0..<threadCount).map { (index: Int) throws(TransportError) -> Worker in
            try Worker(index: index, configuration: configuration, errorRenderer: errorRenderer)
        }
        var bound: [BoundListener] = []
        do {
            for spec in listeners {
                var port = spec.port
                for worker in workers {
                    // The first loop may bind port 0; the others join the port it got.
                    port = try worker.addEndpoint(spec, port: port, reusePort: threadCount > 1)
                }
                bound.append(BoundListener(label: spec.label, host: configuration.host, port: port))
            }
            if let descriptor = configuration.stopsAtEndOfInput {
                try workers[0].stopAtEndOfInput(descriptor) { [weak self] in self?.stop() }
            }
        } catch {
            for worker in workers { worker.runLoopAfterFailedStart() }
            throw error
        }
        if configuration.handlesSignals {
            workers[0].handleSignals { [weak self] in self?.stop() }
        }

        let threads = workers.map { worker -> pthread_t in
            var thread = pthread_t()
            let context = Unmanaged.passRetained(worker).toOpaque()
            let status = pthread_create(
                &thread, nil,
                { arg in
                    guard let arg else { return nil }
                    HTTPServer.workerHandedOver(arg).runLoop()
                    return nil
                }, context)
            precondition(status == 0, "pthread_create failed: \(status)")
            return thread
        }
        state.withLock { $0 = .running(workers: workers, threads: threads) }
        return bound
    }

    /// Stops accepting, lets in-flight replies finish (up to the grace period), then ends
    /// the loops. Safe from any thread, any number of times.
    public func stop() {
        let workers: [Worker] = state.withLock { state in
            guard case .running(let workers, let threads) = state else { return [] }
            state = .stopping(threads: threads)
            return workers
        }
        for worker in workers { worker.requestDrain() }
    }

    /// Blocks until every loop thread has ended (after ``stop()``, or a signal).
    public func wait() {
        let threads: [pthread_t] = state.withLock { state in
            switch state {
            case .running(_, let threads), .stopping(let threads): return threads
            case .idle, .stopped: return []
            }
        }
        for thread in threads { pthread_join(thread, nil) }
        state.withLock { state in
            if case .stopping = state { state = .stopped }
        }
    }

    /// Connections the loops have open, counted on their own threads: how tests see that a
    /// fault's connection was cleaned up.
    func openConnectionCount() -> Int {
        let workers: [Worker] = state.withLock { state in
            if case .running(let workers, _) = state { workers } else { [] }
        }
        let counted = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        for worker in workers {
            worker.runOnLoop { worker in
                let open = worker.connections.count
                counted.withLock { $0 += open }
                done.signal()
            }
        }
        for _ in workers where done.wait(timeout: .now() + 5) == .timedOut { break }
        return counted.withLock { $0 }
    }

    /// The worker a loop thread was started with, its reference (passed retained) taken back:
    /// the thread owns the worker until its loop ends.
    private static func workerHandedOver(_ arg: UnsafeMutableRawPointer) -> Worker {
        Unmanaged<Worker>.fromOpaque(arg).takeRetainedValue()
    }

    /// Stops and waits: the whole graceful shutdown.
    public func shutdown() {
        stop()
        wait()
    }
}

extension Worker {
    /// Frees what a failed start bound, without ever running a loop thread.
    func runLoopAfterFailedStart() {
        exitLoop()
        runLoop()
    }
}
