/// One Engine.IO session's protocol state, with no I/O: the host feeds it what arrives (a poll, a
/// posted body, a WebSocket message, a timer firing, packets to send) and carries out the
/// ``Action``s it returns, in order. docs/feathers-realtime.md#engineio-protocol-v4-heartbeat-and-upgrade
/// and docs/feathers-realtime.md#engineio (revision 3).
public struct EngineIOSession: Sendable {
    /// The timers a session runs; starting one that runs restarts it.
    public enum Timer: Sendable, Equatable {
        /// Revision 4: time to send the next ping.
        case ping
        /// The client has been silent too long: revision 4, no pong; revision 3, no ping.
        case pingTimeout
        /// A probing WebSocket has not finished its upgrade.
        case upgradeTimeout
        /// A session the server closed still waits for the poll that would tell the client.
        case closeTimeout
    }

    /// Why a session ended, in engine.io's words (what socket.io reports as the disconnect reason).
    public enum CloseReason: String, Sendable, Equatable {
        /// The client sent `close`, or its WebSocket closed.
        case transportClose = "transport close"
        /// The client broke the protocol: overlapping polls, a ping the wrong way, a dropped poll.
        case transportError = "transport error"
        /// A packet that could not be read.
        case parseError = "parse error"
        case pingTimeout = "ping timeout"
        /// The server closed the session.
        case forcedClose = "forced close"
    }

    public enum Action: Sendable, Equatable {
        /// Answer the waiting poll (the GET held open, or the one at hand) with this body.
        case answerPoll(String)
        /// Answer the POST at hand with `200 ok`.
        case acknowledgePost
        /// Answer the request at hand with this status and no body (`400` for an overlapping
        /// poll, `413` for a body over `maxPayload`).
        case rejectRequest(status: Int)
        /// Send one message on the session's WebSocket.
        case sendMessage(String)
        /// Send one message on the WebSocket probing for an upgrade.
        case sendProbeMessage(String)
        /// Close the WebSocket probing for an upgrade; the session goes on polling.
        case closeProbe
        /// A `message` packet's text, for the Socket.IO layer.
        case deliver(String)
        case startTimer(Timer, milliseconds: Int)
        case cancelTimer(Timer)
        /// The session is over: forget its id, stop its timers, close its WebSockets, tell the
        /// Socket.IO layer.
        case close(CloseReason)
    }

    private enum State: Sendable, Equatable {
        case open
        /// A WebSocket with this session's id is probing; `probed` once it sent `2probe`.
        case upgrading(probed: Bool)
        /// The server closed the session; the next poll hears it.
        case closing
        case closed
    }

    public let sid: String
    public let revision: EngineIOProtocol
    public let settings: EngineIOSettings
    public private(set) var transport: EngineIOTransport
    private var state = State.open
    /// Packets waiting for the next poll.
    private var outbox: [EngineIOPacket] = []
    /// What they weigh on the wire, in UTF-8 bytes (``EngineIOSettings/maxOutboxBytes``).
    private var outboxBytes = 0
    /// Whether a poll is being held open.
    private var pollWaiting = false

    /// A new session and what to do first: send the open packet (as the handshake's answer, or on
    /// the WebSocket) and start the heartbeat.
    public static func open(
        sid: String, revision: EngineIOProtocol, transport: EngineIOTransport, settings: EngineIOSettings
    ) -> (EngineIOSession, [Action]) {
        let session = EngineIOSession(sid: sid, revision: revision, settings: settings, transport: transport)
        let handshake = EngineIOHandshake(
            sid: sid, upgrades: transport == .polling ? [.websocket] : [],
            pingInterval: settings.pingInterval, pingTimeout: settings.pingTimeout, maxPayload: settings.maxPayload)
        let open = handshake.packet(for: revision)
        var actions: [Action] =
            transport == .polling
            ? [.answerPoll(EngineIOPayload.encode([open], protocol: revision))]
            : [.sendMessage(open.encoded)]
        actions.append(session.heartbeatStart)
        return (session, actions)
    }

    private init(sid: String, revision: EngineIOProtocol, settings: EngineIOSettings, transport: EngineIOTransport) {
        self.sid = sid
        self.revision = revision
        self.settings = settings
        self.transport = transport
    }

    /// Whether the session still takes requests.
    public var isOpen: Bool { state != .closed }

    /// Whether the server has closed it and only waits for the poll that tells the client.
    public var isClosing: Bool { state == .closing }

    /// Revision 4 pings after `pingInterval`; revision 3 waits that long plus `pingTimeout` for the
    /// client's ping.
    private var heartbeatStart: Action {
        revision == .v4
            ? .startTimer(.ping, milliseconds: settings.pingInterval)
            : .startTimer(.pingTimeout, milliseconds: settings.pingInterval + settings.pingTimeout)
    }

    // MARK: Polling

    /// A polling GET: answered now when packets wait (or an upgrade needs the client to pause),
    /// else held open until ``send(_:)`` has something.
    public mutating func poll() -> [Action] {
        switch state {
        case .closed: return [.rejectRequest(status: 400)]
        case .closing:
            state = .closed
            return [.answerPoll(takeOutbox(appending: EngineIOPacket(.close))), .close(.forcedClose)]
        case .open, .upgrading:
            if pollWaiting {
                // Two polls at once: the new one refused, the held one told to close.
                pollWaiting = false
                state = .closed
                return [
                    .rejectRequest(status: 400), .answerPoll(encoded([EngineIOPacket(.close)])),
                    .close(.transportError),
                ]
            }
            if !outbox.isEmpty { return [.answerPoll(takeOutbox())] }
            if state == .upgrading(probed: true) { return [.answerPoll(encoded([EngineIOPacket(.noop)]))] }
            pollWaiting = true
            return []
        }
    }

    /// The client went away while its poll was held: engine.io takes that for a transport error.
    public mutating func pollAbandoned() -> [Action] {
        guard pollWaiting else { return [] }
        pollWaiting = false
        return finish(.transportError)
    }

    /// The server gave up holding the poll (its own limit, not the protocol's): the client polls
    /// again, and the session goes on.
    public mutating func pollTimedOut() {
        pollWaiting = false
    }

    /// A polling POST's body: over ``EngineIOSettings/maxPayload`` bytes or
    /// ``EngineIOSettings/maxPacketsPerPayload`` packets it is refused whole with `413` and the
    /// session goes on (engine.io answers an oversized body so); unreadable, it ends the session.
    public mutating func post(_ body: some Collection<UInt8>) -> [Action] {
        guard state != .closed else { return [.rejectRequest(status: 400)] }
        guard body.count <= settings.maxPayload else { return [.rejectRequest(status: 413)] }
        let packets: [EngineIOPacket]
        do {
            packets = try EngineIOPayload.decode(
                body, protocol: revision, maximumPackets: settings.maxPacketsPerPayload)
        } catch .tooManyPackets {
            return [.rejectRequest(status: 413)]
        } catch {
            return finish(.parseError) + [.acknowledgePost]
        }
        var actions: [Action] = []
        for packet in packets where state != .closed {
            actions += received(packet)
        }
        return actions + [.acknowledgePost]
    }

    // MARK: WebSocket

    /// A message on the session's WebSocket.
    public mutating func webSocketMessage(_ text: String) -> [Action] {
        guard state != .closed else { return [] }
        guard text.utf8.count <= settings.maxPayload else { return finish(.transportError) }
        do {
            return received(try EngineIOPacket.decode(text))
        } catch {
            return finish(.parseError)
        }
    }

    /// A binary message on the session's WebSocket: a binary packet, which Feathers never needs.
    public mutating func webSocketBinaryMessage() -> [Action] {
        state == .closed ? [] : finish(.parseError)
    }

    /// The session's WebSocket closed.
    public mutating func webSocketClosed() -> [Action] {
        guard state != .closed, transport == .websocket else { return [] }
        return finish(.transportClose)
    }

    /// A WebSocket arrived naming this session: a probe for an upgrade. Refused (closed) when the
    /// session already uses, or is trying, a WebSocket.
    public mutating func beginUpgrade() -> [Action] {
        guard state == .open, transport == .polling else { return [.closeProbe] }
        state = .upgrading(probed: false)
        return [.startTimer(.upgradeTimeout, milliseconds: settings.upgradeTimeout)]
    }

    /// A message on the probing WebSocket: `2probe`, then `5`; anything else ends the attempt.
    public mutating func probeMessage(_ text: String) -> [Action] {
        guard case .upgrading(let probed) = state else { return [.closeProbe] }
        switch (probed, text) {
        case (false, "2probe"):
            state = .upgrading(probed: true)
            var actions: [Action] = [.sendProbeMessage(EngineIOPacket(.pong, "probe").encoded)]
            // The client pauses polling once its poll comes back; make it come back now.
            if pollWaiting {
                pollWaiting = false
                actions.append(.answerPoll(encoded([EngineIOPacket(.noop)])))
            }
            return actions
        case (true, "5"):
            state = .open
            transport = .websocket
            var actions: [Action] = [.cancelTimer(.upgradeTimeout)]
            if pollWaiting {
                pollWaiting = false
                actions.append(.answerPoll(encoded([EngineIOPacket(.noop)])))
            }
            actions += outbox.map { .sendMessage($0.encoded) }
            outbox = []
            outboxBytes = 0
            return actions
        default:
            return abandonUpgrade()
        }
    }

    /// The probing WebSocket closed before the upgrade finished.
    public mutating func probeClosed() -> [Action] {
        guard case .upgrading = state else { return [] }
        state = .open
        return [.cancelTimer(.upgradeTimeout)]
    }

    private mutating func abandonUpgrade() -> [Action] {
        state = .open
        return [.cancelTimer(.upgradeTimeout), .closeProbe]
    }

    // MARK: Sending, timers, closing

    /// Packets for the client (Socket.IO messages, usually): on the WebSocket at once, or to the
    /// held poll, or kept for the next one. Packets that would take the waiting ones past
    /// ``EngineIOSettings/maxOutboxBytes`` end the session instead: a client that does not poll
    /// cannot make the server hold its answers without end.
    public mutating func send(_ packets: [EngineIOPacket]) -> [Action] {
        guard state != .closed, state != .closing, !packets.isEmpty else { return [] }
        if transport == .websocket { return packets.map { .sendMessage($0.encoded) } }
        // Each packet's text, its type's digit and a byte of framing (its separator, or the
        // colon of its length prefix): what it adds to the poll's answer, near enough.
        let bytes = packets.reduce(0) { $0 + $1.text.utf8.count + 2 }
        if !outbox.isEmpty, outboxBytes + bytes > settings.maxOutboxBytes { return finish(.forcedClose) }
        outbox += packets
        outboxBytes += bytes
        guard pollWaiting else { return [] }
        pollWaiting = false
        return [.answerPoll(takeOutbox())]
    }

    /// A timer the session started went off.
    public mutating func timerFired(_ timer: Timer) -> [Action] {
        switch (timer, state) {
        case (_, .closed): return []
        case (.ping, _) where revision == .v4:
            return send([EngineIOPacket(.ping)]) + [.startTimer(.pingTimeout, milliseconds: settings.pingTimeout)]
        case (.pingTimeout, _): return finish(.pingTimeout)
        case (.upgradeTimeout, .upgrading): return abandonUpgrade()
        case (.closeTimeout, .closing):
            state = .closed
            return [.close(.forcedClose)]
        default: return []
        }
    }

    /// The server ends the session: a WebSocket is closed now; a polling client hears `close` on
    /// its held poll, or on its next one (within `closeTimeout`).
    public mutating func close() -> [Action] {
        guard state != .closed, state != .closing else { return [] }
        if transport == .polling, !pollWaiting {
            state = .closing
            return [
                .cancelTimer(.ping), .cancelTimer(.pingTimeout),
                .startTimer(.closeTimeout, milliseconds: settings.closeTimeout),
            ]
        }
        return finish(.forcedClose)
    }

    /// One packet from the client, on its current transport.
    private mutating func received(_ packet: EngineIOPacket) -> [Action] {
        switch packet.type {
        case .message:
            return [.deliver(packet.text)]
        case .ping where revision == .v3:
            return send([EngineIOPacket(.pong, packet.text)]) + [heartbeatStart]
        case .pong where revision == .v4:
            return [.cancelTimer(.pingTimeout), heartbeatStart]
        case .ping, .pong:
            // A heartbeat the wrong way round.
            return finish(.transportError)
        case .close:
            return finish(.transportClose)
        case .open, .upgrade, .noop:
            return []
        }
    }

    /// Ends the session now; a held poll hears `close` (or `noop` when the client asked to close).
    private mutating func finish(_ reason: CloseReason) -> [Action] {
        var actions: [Action] = []
        if pollWaiting {
            pollWaiting = false
            actions.append(.answerPoll(encoded([EngineIOPacket(reason == .transportClose ? .noop : .close)])))
        }
        if case .upgrading = state { actions.append(.closeProbe) }
        state = .closed
        outbox = []
        outboxBytes = 0
        return actions + [.close(reason)]
    }

    private func encoded(_ packets: [EngineIOPacket]) -> String { EngineIOPayload.encode(packets, protocol: revision) }

    private mutating func takeOutbox(appending last: EngineIOPacket? = nil) -> String {
        var packets = outbox
        if let last { packets.append(last) }
        outbox = []
        outboxBytes = 0
        return encoded(packets)
    }
}
