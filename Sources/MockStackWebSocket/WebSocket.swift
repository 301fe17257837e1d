public import MockStackCore
import Synchronization

/// What an app does with its WebSocket connections. Called on the connection's event loop, one
/// call at a time for each socket (sockets on different loops may be served at once: one
/// delegate serving many sockets must be thread-safe). Calls must not block.
public protocol WebSocketDelegate: Sendable {
    /// The handshake is done; `socket` may send from now on.
    func opened(_ socket: WebSocket)
    /// A whole message from the client.
    func received(_ message: WebSocketMessage, on socket: WebSocket)
    /// The connection has closed (see ``WebSocketSession/Event/closed(code:reason:)``); called once.
    func closed(_ socket: WebSocket, code: WebSocketCloseCode, reason: String)
}

extension WebSocketDelegate {
    public func opened(_ socket: WebSocket) {}
    public func closed(_ socket: WebSocket, code: WebSocketCloseCode, reason: String) {}
}

/// One server-side WebSocket connection. Its sending methods may be called from any thread
/// (another loop's request, a timer): frames go out in the order the calls were made, and
/// nothing is sent once closing has begun. Equal and hashable by identity.
public final class WebSocket: ByteStreamHandler, Sendable, Hashable, CustomStringConvertible {
    /// The handshake request: its path, query and headers.
    public let request: HTTPRequest
    /// The subprotocol agreed on in the handshake, if any.
    public let subprotocol: String?
    private let delegate: any WebSocketDelegate
    private let closeTimeoutMilliseconds: Int
    private let shared: Mutex<Shared>

    private struct Shared {
        var session: WebSocketSession
        var stream: (any ByteStream)?
    }

    init(
        request: HTTPRequest, subprotocol: String?, configuration: WebSocketConfiguration,
        delegate: any WebSocketDelegate
    ) {
        self.request = request
        self.subprotocol = subprotocol
        self.delegate = delegate
        closeTimeoutMilliseconds = configuration.closeTimeoutMilliseconds
        shared = Mutex(Shared(session: WebSocketSession(maxMessageBytes: configuration.maxMessageBytes)))
    }

    // MARK: - Sending (any thread)

    /// Sends a text message. - Returns: false once closing has begun (nothing is sent).
    @discardableResult
    public func send(text: String) -> Bool { send(.text(text)) }

    /// Sends a binary message. - Returns: false once closing has begun (nothing is sent).
    @discardableResult
    public func send(binary: [UInt8]) -> Bool { send(.binary(binary)) }

    /// Sends a message. - Returns: false once closing has begun (nothing is sent).
    @discardableResult
    public func send(_ message: WebSocketMessage) -> Bool {
        shared.withLock { shared in
            guard let stream = shared.stream, let frame = shared.session.frame(for: message) else { return false }
            stream.write(frame)
            return true
        }
    }

    /// Sends a ping (the client answers with a pong, which is not reported).
    public func ping(_ payload: [UInt8] = []) {
        shared.withLock { shared in
            guard let stream = shared.stream, let frame = shared.session.pingFrame(payload) else { return }
            stream.write(frame)
        }
    }

    /// Starts the closing handshake: a close frame with `code` and `reason` (cut to 123 bytes),
    /// then the connection ends when the client answers, or after the close timeout.
    public func close(code: WebSocketCloseCode = .normal, reason: String = "") {
        let events = shared.withLock { shared in perform(shared.session.close(code: code, reason: reason), &shared) }
        deliver(events)
    }

    /// Whether messages can still be sent.
    public var isOpen: Bool { shared.withLock { $0.stream != nil && $0.session.state == .open } }

    // MARK: - The stream (the connection's loop)

    public func started(on stream: any ByteStream) {
        shared.withLock { $0.stream = stream }
        delegate.opened(self)
    }

    public func received(_ bytes: [UInt8]) {
        // Event by event, each heard before the next is acted on: a message is answered before
        // a close that came with it is echoed.
        for event in shared.withLock({ $0.session.read(bytes) }) {
            deliver(shared.withLock { shared in perform(shared.session.handle(event), &shared) })
        }
    }

    public func serverStopping() {
        let events = shared.withLock { shared in perform(shared.session.serverStopping(), &shared) }
        deliver(events)
    }

    public func streamEnded() {
        let events = shared.withLock { shared in
            shared.stream = nil
            return shared.session.connectionEnded().events
        }
        deliver(events)
    }

    /// Does what a step of the session asks, under the lock (so frames keep their order);
    /// returns its events, for the delegate to hear outside it.
    private func perform(_ output: WebSocketSession.Output, _ shared: inout Shared) -> [WebSocketSession.Event] {
        guard let stream = shared.stream else { return output.events }
        if !output.bytes.isEmpty { stream.write(output.bytes) }
        if output.endsConnection { stream.close() }
        if output.awaitsPeerClose {
            stream.schedule(afterMilliseconds: closeTimeoutMilliseconds) { [self] in
                let events = self.shared.withLock { shared in self.perform(shared.session.closeTimedOut(), &shared) }
                self.deliver(events)
            }
        }
        return output.events
    }

    private func deliver(_ events: [WebSocketSession.Event]) {
        for event in events {
            switch event {
            case .message(let message): delegate.received(message, on: self)
            case .closed(let code, let reason): delegate.closed(self, code: code, reason: reason)
            }
        }
    }

    public static func == (lhs: WebSocket, rhs: WebSocket) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "WebSocket(\(request.path))" }
}
