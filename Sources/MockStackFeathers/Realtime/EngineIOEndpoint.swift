import MockStackAuth
public import MockStackCore
public import MockStackSocketIO
import MockStackWebSocket
import Synchronization

/// A Feathers app's Engine.IO endpoint, `socket.io/` under its mount: the handshake, the open
/// sessions by id, and for each session a ``FeathersSocketConnection``. A v5 app speaks Engine.IO
/// revision 4 and refuses revision 3 (a generated app does not set `allowEIO3`); a v4 app speaks
/// revision 3 whatever the client asks, as engine.io 3 does. docs/feathers-realtime.md.
public final class EngineIOEndpoint: Sendable {
    /// Engine.IO's path under the app: any request path that starts with it is Engine.IO's.
    public static let path = "/socket.io/"

    public let settings: EngineIOSettings
    private let clock: any RealtimeClock
    private let sessions = Mutex<[String: EngineIOSessionHost]>([:])
    /// Numbers the sessions in the order they open.
    private let serials = Atomic<Int>(0)
    /// The sessions open on this endpoint and its copies.
    private let budget: EngineIOSessionBudget

    public convenience init(
        settings: EngineIOSettings = EngineIOSettings(), clock: any RealtimeClock = DispatchRealtimeClock()
    ) {
        self.init(settings: settings, clock: clock, budget: EngineIOSessionBudget(limit: settings.maxSessions))
    }

    private init(settings: EngineIOSettings, clock: any RealtimeClock, budget: EngineIOSessionBudget) {
        self.settings = settings
        self.clock = clock
        self.budget = budget
    }

    /// An endpoint with the same settings and clock and no sessions (a mockstack session's app),
    /// sharing this one's ``EngineIOSettings/maxSessions``.
    public func fresh() -> EngineIOEndpoint { EngineIOEndpoint(settings: settings, clock: clock, budget: budget) }

    /// How many sessions are open.
    public var sessionCount: Int { sessions.withLock { $0.count } }

    private let eventDelay = Atomic<Int>(0)

    /// The Socket.IO connections of the open sessions, oldest first.
    var sockets: [FeathersSocketConnection] {
        sessions.withLock { Array($0.values) }.sorted { $0.serial < $1.serial }.compactMap(\.connection)
    }

    /// The open connections as the control plane lists them.
    public var connections: [RealtimeConnection] {
        sessions.withLock { Array($0.values) }.sorted { $0.serial < $1.serial }.compactMap { host in
            host.connection.flatMap { $0.isOpen ? $0.description(transport: host.transport) : nil }
        }
    }

    /// Ends the session carrying the connection `id` (the control plane's drop).
    public func close(connection id: String) -> Bool {
        guard let host = sessions.withLock({ $0.values.first { $0.connection?.id == id } }) else { return false }
        host.close()
        return true
    }

    /// Holds every event sent on the endpoint's connections this long (0: none).
    public func delayEvents(byMilliseconds milliseconds: Int) {
        eventDelay.store(max(0, milliseconds), ordering: .relaxed)
    }

    public var eventDelayMilliseconds: Int { eventDelay.load(ordering: .relaxed) }

    /// Whether a request path (relative to the app's mount) is Engine.IO's.
    public static func handles(_ path: String) -> Bool { path.utf8.starts(with: Self.path.utf8) }

    /// Ends every session (the control plane's reset): WebSockets close, polling clients hear
    /// `close` on their next poll.
    public func closeAll() {
        for host in sessions.withLock({ Array($0.values) }) { host.close() }
    }

    /// Answers a request under `socket.io/` for `app`.
    public func respond(to request: HTTPRequest, app: FeathersApp) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        let isUpgrade = request.headers["Upgrade"].map { $0.lowercased() == "websocket" } ?? false
        let facts = EngineIORequest.Facts(
            method: request.method.rawValue, transport: parameters["transport"], sid: parameters["sid"],
            revision: parameters["EIO"], isUpgrade: isUpgrade)
        let server: EngineIOProtocol = app.dialect == .v4 ? .v3 : .v4
        // Looked up once: the checks and the answer use the same session.
        let host = parameters["sid"].flatMap { sid in sessions.withLock { $0[sid] } }
        let classified = EngineIORequest.classify(facts, server: server, allowsV3: false) { _ in host?.transport }
        switch classified {
        case .failure(let error):
            // A refused WebSocket upgrade gets engine.io's bare text answer; polling its JSON.
            if isUpgrade {
                return HTTPResponse(
                    status: error.status, headers: ["Content-Type": "text/html"], body: Array(error.message.utf8))
            }
            return .json(error.status, error.body)
        case .success(.handshake(_, _)) where !budget.hasRoom:
            return refusedHandshake(isUpgrade: isUpgrade)
        case .success(.handshake(let revision, .polling)):
            return open(
                revision: revision, transport: .polling, app: app, authorization: request.headers["Authorization"]
            ).response
        case .success(.handshake(let revision, .websocket)):
            return WebSocketHandshake.response(
                to: request, configuration: webSocketConfiguration,
                delegate: DirectSocket(
                    endpoint: self, app: app, revision: revision, authorization: request.headers["Authorization"]))
        case .success(.session(_, .polling)):
            guard let host else { return .json(400, EngineIORequestError.unknownSession.body) }
            switch request.method {
            case .get: return host.poll(holdingFor: settings.pingInterval + settings.pingTimeout)
            case .post: return host.post(request.body)
            default: return HTTPResponse(status: 500)
            }
        case .success(.session(_, .websocket)):
            guard let host else { return .json(400, EngineIORequestError.unknownSession.body) }
            return WebSocketHandshake.response(
                to: request, configuration: webSocketConfiguration, delegate: SessionSocket(host: host))
        }
    }

    /// A handshake past ``EngineIOSettings/maxSessions``, refused as engine.io's `allowRequest`
    /// refuses one: `403` and `{"code":4,"message":…}`, or on a WebSocket `400` and the message
    /// as text (engine.io's `abortUpgrade` answers every refused upgrade so).
    private func refusedHandshake(isUpgrade: Bool) -> HTTPResponse {
        let message = "Too many Engine.IO sessions: at most \(budget.limit) may be open at once"
        if isUpgrade {
            return HTTPResponse(status: 400, headers: ["Content-Type": "text/html"], body: Array(message.utf8))
        }
        return .json(EngineIORequestError.forbidden.status, EngineIORequestError.forbidden.body(message: message))
    }

    private var webSocketConfiguration: WebSocketConfiguration {
        WebSocketConfiguration(maxMessageBytes: settings.maxPayload)
    }

    /// Opens a session and its Socket.IO connection; `socket` is the WebSocket of a direct one.
    fileprivate func open(
        revision: EngineIOProtocol, transport: EngineIOTransport, app: FeathersApp, authorization: String?,
        socket: WebSocket? = nil
    ) -> (host: EngineIOSessionHost, response: HTTPResponse) {
        let sid = Self.makeID()
        let (session, actions) = EngineIOSession.open(
            sid: sid, revision: revision, transport: transport, settings: settings)
        let host = EngineIOSessionHost(
            session: session, serial: serials.add(1, ordering: .relaxed).newValue, clock: clock
        ) { [weak self] sid in
            guard let self, sessions.withLock({ $0.removeValue(forKey: sid) }) != nil else { return }
            budget.ended()
        }
        let connection = FeathersSocketConnection(
            app: app, id: Self.makeID(), handshakeAuthorization: authorization,
            output: .init(
                send: { [weak host] text in host?.send([.message(text)]) },
                close: { [weak host] in host?.close() }), clock: clock)
        host.attach(connection)
        sessions.withLock { $0[sid] = host }
        budget.opened()
        let response = host.start(actions, socket: socket) ?? HTTPResponse(status: 101)
        connection.opened()
        return (host, response)
    }

    /// Engine.IO's ids: 15 random bytes in URL-safe base64, 20 characters.
    static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<15).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A WebSocket that opens a session of its own (`transport=websocket`, no `sid`).
    private final class DirectSocket: WebSocketDelegate {
        let endpoint: EngineIOEndpoint
        let app: FeathersApp
        let revision: EngineIOProtocol
        let authorization: String?
        /// The session this socket opened.
        let host = Mutex<EngineIOSessionHost?>(nil)

        init(endpoint: EngineIOEndpoint, app: FeathersApp, revision: EngineIOProtocol, authorization: String?) {
            self.endpoint = endpoint
            self.app = app
            self.revision = revision
            self.authorization = authorization
        }

        func opened(_ socket: WebSocket) {
            let (opened, _) = endpoint.open(
                revision: revision, transport: .websocket, app: app, authorization: authorization, socket: socket)
            host.withLock { $0 = opened }
        }

        func received(_ message: WebSocketMessage, on socket: WebSocket) {
            host.withLock { $0 }?.received(message, on: socket)
        }

        func closed(_ socket: WebSocket, code: WebSocketCloseCode, reason: String) {
            host.withLock { $0 }?.closed(socket)
        }
    }

    /// A WebSocket naming an open session: the probe of an upgrade.
    private struct SessionSocket: WebSocketDelegate {
        let host: EngineIOSessionHost

        func opened(_ socket: WebSocket) { host.probeOpened(socket) }
        func received(_ message: WebSocketMessage, on socket: WebSocket) { host.received(message, on: socket) }
        func closed(_ socket: WebSocket, code: WebSocketCloseCode, reason: String) { host.closed(socket) }
    }
}
