import MockStackCore
import MockStackSocketIO
import MockStackWebSocket
import Synchronization

/// Carries out one Engine.IO session's actions (``EngineIOSession``) on real requests, WebSockets
/// and timers, and joins it to its Socket.IO connection. Thread-safe: polls, posts, WebSocket
/// messages, timers and events arrive on any thread. The session's state changes under one lock;
/// what touches the outside (answering a held poll, sending on a WebSocket, handing a message to
/// the connection) runs after it is released, so that nothing calls back into a held lock.
final class EngineIOSessionHost: Sendable {
    private struct Inner {
        var session: EngineIOSession
        /// The poll held open, and its number (to tell a stale release from the current one).
        var heldPoll: (number: Int, answer: DeferredAnswer)?
        var pollCount = 0
        var socket: WebSocket?
        var probe: WebSocket?
        /// Running timers by kind, with the generation that tells a cancelled one from its successor.
        var timers: [EngineIOSession.Timer: (generation: Int, timer: RealtimeTimer)] = [:]
        var generation = 0
    }

    /// Something to do once the lock is released.
    private enum Effect {
        case answer(DeferredAnswer, HTTPResponse)
        case send(WebSocket, String)
        case close(WebSocket)
        case deliver(String)
        case ended(EngineIOSession.CloseReason)
    }

    let sid: String
    private let inner: Mutex<Inner>
    private let clock: any RealtimeClock
    /// Called once when the session ends, to forget its id.
    private let onEnd: @Sendable (String) -> Void
    /// The Socket.IO connection it carries; set once, right after the host is made.
    private let connectionSlot = Mutex<FeathersSocketConnection?>(nil)

    /// Its place in the order sessions opened.
    let serial: Int

    init(session: EngineIOSession, serial: Int, clock: any RealtimeClock, onEnd: @escaping @Sendable (String) -> Void) {
        sid = session.sid
        self.serial = serial
        inner = Mutex(Inner(session: session))
        self.clock = clock
        self.onEnd = onEnd
    }

    func attach(_ connection: FeathersSocketConnection) {
        connectionSlot.withLock { $0 = connection }
    }

    var connection: FeathersSocketConnection? { connectionSlot.withLock { $0 } }

    var transport: EngineIOTransport { inner.withLock { $0.session.transport } }

    // MARK: Requests

    /// The handshake's own answer (polling), or its first message (a direct WebSocket).
    func start(_ actions: [EngineIOSession.Action], socket: WebSocket?) -> HTTPResponse? {
        var response: HTTPResponse?
        let effects = inner.withLock { inner in
            inner.socket = socket
            return apply(actions, &inner) { action in
                if case .answerPoll(let body) = action { response = Self.pollAnswer(body) }
            }
        }
        run(effects)
        return response
    }

    /// A polling GET: answered now, or held until the session has something (or gives up).
    func poll(holdingFor milliseconds: Int) -> HTTPResponse {
        var response: HTTPResponse?
        let effects = inner.withLock { inner -> [Effect] in
            let held = inner.heldPoll != nil
            let actions = inner.session.poll()
            let effects = apply(actions, &inner) { action in
                switch action {
                case .answerPoll(let body) where !held: response = Self.pollAnswer(body)
                case .rejectRequest(let status): response = HTTPResponse(status: status)
                default: break
                }
            }
            if response == nil {
                inner.pollCount += 1
                let number = inner.pollCount
                let answer = DeferredAnswer(timeoutMilliseconds: milliseconds) { [weak self] ending in
                    self?.pollReleased(number, ending)
                }
                inner.heldPoll = (number, answer)
                // Past the server's own limit the poll comes back with a noop (a mockstack choice:
                // engine.io holds it for as long as it takes; a ping comes first anyway).
                var timeoutAnswer = Self.pollAnswer(
                    EngineIOPayload.encode([EngineIOPacket(.noop)], protocol: inner.session.revision))
                timeoutAnswer.delivery = .deferred(answer)
                response = timeoutAnswer
            }
            return effects
        }
        run(effects)
        return response ?? HTTPResponse(status: 400)
    }

    /// A polling POST's body.
    func post(_ body: [UInt8]) -> HTTPResponse {
        var response = HTTPResponse(status: 400)
        let effects = inner.withLock { inner in
            apply(inner.session.post(body), &inner) { action in
                switch action {
                case .acknowledgePost:
                    response = HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Array("ok".utf8))
                case .rejectRequest(let status): response = HTTPResponse(status: status)
                default: break
                }
            }
        }
        run(effects)
        return response
    }

    private func pollReleased(_ number: Int, _ ending: DeferredAnswer.Ending) {
        guard ending != .completed else { return }
        let effects = inner.withLock { inner -> [Effect] in
            guard inner.heldPoll?.number == number else { return [] }
            inner.heldPoll = nil
            if ending == .timedOut {
                inner.session.pollTimedOut()
                return []
            }
            return apply(inner.session.pollAbandoned(), &inner)
        }
        run(effects)
    }

    // MARK: WebSockets

    /// A WebSocket naming this session opened: a probe for an upgrade.
    func probeOpened(_ socket: WebSocket) {
        let effects = inner.withLock { inner -> [Effect] in
            let actions = inner.session.beginUpgrade()
            if actions.contains(.closeProbe) { return [.close(socket)] }
            inner.probe = socket
            return apply(actions, &inner)
        }
        run(effects)
    }

    /// A message on one of the session's WebSockets: the upgraded one, or the probe.
    func received(_ message: WebSocketMessage, on socket: WebSocket) {
        let effects = inner.withLock { inner -> [Effect] in
            guard case .text(let text) = message else {
                // A binary message is a binary packet, which Feathers never needs.
                return inner.socket === socket
                    ? apply(inner.session.webSocketBinaryMessage(), &inner) : [.close(socket)]
            }
            if inner.socket === socket { return apply(inner.session.webSocketMessage(text), &inner) }
            guard inner.probe === socket else { return [.close(socket)] }
            let actions = inner.session.probeMessage(text)
            if inner.session.transport == .websocket {
                inner.socket = socket
                inner.probe = nil
            }
            return apply(actions, &inner)
        }
        run(effects)
    }

    func closed(_ socket: WebSocket) {
        let effects = inner.withLock { inner -> [Effect] in
            if inner.socket === socket { return apply(inner.session.webSocketClosed(), &inner) }
            guard inner.probe === socket else { return [] }
            inner.probe = nil
            return apply(inner.session.probeClosed(), &inner)
        }
        run(effects)
    }

    // MARK: From the server

    /// Packets for the client (the Socket.IO connection's, usually).
    func send(_ packets: [EngineIOPacket]) {
        run(inner.withLock { inner in apply(inner.session.send(packets), &inner) })
    }

    /// The server ends the session.
    func close() {
        let (effects, closing) = inner.withLock { inner in
            (apply(inner.session.close(), &inner), inner.session.isClosing)
        }
        run(effects)
        // A polling client hears the close on its next poll; for everything else the connection
        // is gone now (not listed, sent nothing more).
        if closing { connection?.closed(reason: EngineIOSession.CloseReason.forcedClose.rawValue) }
    }

    private func timerFired(_ timer: EngineIOSession.Timer, generation: Int) {
        let effects = inner.withLock { inner -> [Effect] in
            guard inner.timers[timer]?.generation == generation else { return [] }
            inner.timers[timer] = nil
            return apply(inner.session.timerFired(timer), &inner)
        }
        run(effects)
    }

    // MARK: Carrying out actions

    /// Turns actions into state changes (under the lock) and effects (for after it); the actions
    /// that answer the request at hand go to `answerInHand`.
    private func apply(
        _ actions: [EngineIOSession.Action], _ inner: inout Inner,
        answerInHand: (EngineIOSession.Action) -> Void = { _ in }
    ) -> [Effect] {
        var effects: [Effect] = []
        for action in actions {
            answerInHand(action)
            switch action {
            case .answerPoll(let body):
                if let held = inner.heldPoll {
                    inner.heldPoll = nil
                    effects.append(.answer(held.answer, Self.pollAnswer(body)))
                }
            case .acknowledgePost, .rejectRequest:
                break
            case .sendMessage(let text):
                if let socket = inner.socket { effects.append(.send(socket, text)) }
            case .sendProbeMessage(let text):
                if let probe = inner.probe { effects.append(.send(probe, text)) }
            case .closeProbe:
                if let probe = inner.probe { effects.append(.close(probe)) }
                inner.probe = nil
            case .deliver(let text):
                effects.append(.deliver(text))
            case .startTimer(let timer, let milliseconds):
                inner.timers[timer]?.timer.cancel()
                inner.generation += 1
                let generation = inner.generation
                let handle = clock.schedule(afterMilliseconds: milliseconds) { [weak self] in
                    self?.timerFired(timer, generation: generation)
                }
                inner.timers[timer] = (generation, handle)
            case .cancelTimer(let timer):
                inner.timers.removeValue(forKey: timer)?.timer.cancel()
            case .close(let reason):
                for (_, running) in inner.timers { running.timer.cancel() }
                inner.timers = [:]
                if let socket = inner.socket { effects.append(.close(socket)) }
                if let probe = inner.probe { effects.append(.close(probe)) }
                inner.socket = nil
                inner.probe = nil
                effects.append(.ended(reason))
            }
        }
        return effects
    }

    private func run(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .answer(let answer, let response): answer.complete(with: response)
            case .send(let socket, let text): socket.send(text: text)
            case .close(let socket): socket.close()
            case .deliver(let text): connection?.received(text)
            case .ended(let reason):
                onEnd(sid)
                connection?.closed(reason: reason.rawValue)
            }
        }
    }

    /// A poll's answer: a payload as text, never cached (engine.io's polling transport).
    static func pollAnswer(_ body: String) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": "text/plain; charset=UTF-8", "Cache-Control": "no-store"],
            body: Array(body.utf8))
    }
}
