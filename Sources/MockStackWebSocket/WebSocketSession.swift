/// The server's side of one WebSocket connection as plain values (RFC 6455): bytes in, and out
/// the bytes to send, what to tell the app and what to do with the connection. ``WebSocket``
/// runs it on a stream; tests run it alone.
///
/// Pings are answered with pongs. A close from the peer is echoed with its code and the
/// connection then ends; a close we start waits for the peer's (``closeTimedOut()`` ends the
/// wait). A frame the reader refuses sends a close with its code and ends the connection. The
/// app hears ``Event/closed(code:reason:)`` once, whatever the way.
public struct WebSocketSession: Sendable {
    public enum State: Equatable, Sendable {
        case open
        /// Our close frame is sent; waiting for the peer's.
        case closing
        case closed
    }

    public enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        /// The connection has closed: the peer's code (``WebSocketCloseCode/noStatus`` when its
        /// close had none), ours when we failed it, ``WebSocketCloseCode/abnormal`` when it ended
        /// without a close.
        case closed(code: WebSocketCloseCode, reason: String)
    }

    /// What a step asks of the caller, to do in this order.
    public struct Output: Equatable, Sendable {
        /// Bytes to send.
        public var bytes: [UInt8] = []
        public var events: [Event] = []
        /// Close the connection once the bytes are out.
        public var endsConnection = false
        /// Start the wait for the peer's close (``closeTimedOut()`` at its end).
        public var awaitsPeerClose = false

        public init() {}
    }

    public private(set) var state = State.open
    private var reader: WebSocketFrameReader
    private var reportedClosed = false

    public init(maxMessageBytes: Int) {
        reader = WebSocketFrameReader(maxMessageBytes: maxMessageBytes)
    }

    /// Bytes from the client: each event they complete, handled in turn (``handle(_:)``).
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var output = Output()
        for event in read(bytes) {
            let step = handle(event)
            output.bytes += step.bytes
            output.events += step.events
            output.endsConnection = output.endsConnection || step.endsConnection
        }
        return output
    }

    /// The frame reader's events for bytes from the client, to ``handle(_:)`` one at a time: the
    /// app hears a message before what follows it is acted on (it may answer a message that a
    /// close follows in the same packet).
    public mutating func read(_ bytes: [UInt8]) -> [WebSocketFrameReader.Event] {
        state == .closed ? [] : reader.read(bytes)
    }

    /// One event of the client's.
    public mutating func handle(_ event: WebSocketFrameReader.Event) -> Output {
        var output = Output()
        guard state != .closed else { return output }
        switch event {
        case .message(let message):
            output.events.append(.message(message))
        case .ping(let payload):
            if state == .open { output.bytes = WebSocketFrame.encode(.pong, payload) }
        case .pong:
            break
        case .close(let code, let reason):
            // Echo the code (an empty close for an empty one), unless ours is already out.
            if state == .open {
                output.bytes =
                    code.map { WebSocketFrame.encode(.close, WebSocketFrame.closePayload($0, reason: "")) }
                    ?? WebSocketFrame.encode(.close, [])
            }
            end(&output, code: code ?? .noStatus, reason: reason)
        case .failed(let failure):
            if state == .open {
                output.bytes = WebSocketFrame.encode(
                    .close, WebSocketFrame.closePayload(failure.code, reason: failure.reason))
            }
            end(&output, code: failure.code, reason: failure.reason)
        }
        return output
    }

    /// The frame for a message, or nil once closing has begun.
    public func frame(for message: WebSocketMessage) -> [UInt8]? {
        guard state == .open else { return nil }
        switch message {
        case .text(let text): return WebSocketFrame.encode(.text, text.utf8)
        case .binary(let bytes): return WebSocketFrame.encode(.binary, bytes)
        }
    }

    /// A ping frame (payload cut to 125 bytes), or nil once closing has begun.
    public func pingFrame(_ payload: [UInt8]) -> [UInt8]? {
        guard state == .open else { return nil }
        return WebSocketFrame.encode(.ping, payload.prefix(125))
    }

    /// Starts the closing handshake: our close frame, then the wait for the peer's.
    public mutating func close(code: WebSocketCloseCode, reason: String) -> Output {
        var output = Output()
        guard state == .open else { return output }
        output.bytes = WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason: reason))
        output.awaitsPeerClose = true
        state = .closing
        return output
    }

    /// The server is stopping: a close with 1001, and the connection ends without waiting.
    public mutating func serverStopping() -> Output {
        var output = Output()
        if state == .open {
            output.bytes = WebSocketFrame.encode(
                .close, WebSocketFrame.closePayload(.goingAway, reason: "server stopping"))
        }
        end(&output, code: .goingAway, reason: "server stopping")
        return output
    }

    /// The peer did not answer our close in time: the connection ends.
    public mutating func closeTimedOut() -> Output {
        var output = Output()
        guard state == .closing else { return output }
        end(&output, code: .abnormal, reason: "no close frame from the client in time")
        return output
    }

    /// The connection has ended, whoever ended it.
    public mutating func connectionEnded() -> Output {
        var output = Output()
        state = .closed
        if !reportedClosed {
            reportedClosed = true
            output.events.append(.closed(code: .abnormal, reason: ""))
        }
        return output
    }

    private mutating func end(_ output: inout Output, code: WebSocketCloseCode, reason: String) {
        state = .closed
        output.endsConnection = true
        if !reportedClosed {
            reportedClosed = true
            output.events.append(.closed(code: code, reason: reason))
        }
    }
}
