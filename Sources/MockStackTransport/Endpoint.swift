import CLibevent
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One listener on one loop and the responder that answers there: each accepted socket
/// becomes an ``HTTPConnection``.
final class Endpoint {
    /// The worker owns its endpoints and lets them go only when its loop has ended.
    unowned(unsafe) let worker: Worker
    private(set) var listener: OpaquePointer?
    let responder: any Responder
    let label: String
    /// The TLS its connections speak, if any.
    let tls: TLSContext?
    /// Pauses accepting when descriptors run out.
    private let acceptBackoff: AcceptBackoff

    /// Binds `port` on the worker's loop (0 for a free one; with `reusePort`, the port another
    /// loop bound first) and starts accepting.
    init(worker: Worker, spec: ListenerSpec, port: Int, reusePort: Bool) throws(TransportError) {
        self.worker = worker
        responder = spec.responderForLoop()
        label = spec.label
        tls = spec.tls
        let listener = try SocketBinding.listen(
            base: worker.base, host: worker.configuration.host, port: port, reusePort: reusePort, logger: worker.logger)
        self.listener = listener
        acceptBackoff = AcceptBackoff(listener: listener, base: worker.base, logger: worker.logger)
        // Created without a callback, the listener waits for this one (listener.c).
        evconnlistener_set_cb(
            listener,
            { _, socket, _, _, arg in
                guard let arg else { return }
                Endpoint.from(arg).accepted(socket)
            }, Unmanaged.passUnretained(self).toOpaque())
        evconnlistener_set_error_cb(listener) { _, arg in
            let error = SystemCallError.current
            guard let arg else { return }
            let endpoint = Endpoint.from(arg)
            endpoint.acceptBackoff.acceptFailed(error, openConnections: endpoint.worker.connections.count)
        }
    }

    private static func from(_ arg: UnsafeMutableRawPointer) -> Endpoint {
        Unmanaged<Endpoint>.fromOpaque(arg).takeUnretainedValue()
    }

    private func accepted(_ socket: Int32) {
        guard let connection = HTTPConnection(worker: worker, endpoint: self, socket: socket) else {
            SystemCalls.close(socket)
            return
        }
        worker.connections[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    /// Stops accepting for good and closes the listening socket (a graceful stop, or the end).
    func stopListening() {
        guard let listener else { return }
        acceptBackoff.cancel()
        evconnlistener_free(listener)
        self.listener = nil
    }
}
