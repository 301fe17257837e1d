import MockStackCore
public import MockStackSocketIO
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One client's Socket.IO connection to a Feathers app, above Engine.IO: joining the main
/// namespace, service calls and their acknowledgements, signing in and out, and the service
/// events its channels let through. Thread-safe: packets, events and the close may come from any
/// thread. docs/feathers-realtime.md#feathers-over-the-socket.
public final class FeathersSocketConnection: Sendable {
    /// Where the connection's packets go: the Engine.IO session that carries it.
    public struct Output: Sendable {
        /// Sends one Socket.IO packet's text (as an Engine.IO `message`).
        public var send: @Sendable (String) -> Void
        /// Ends the Engine.IO session (a packet that breaks the protocol).
        public var close: @Sendable () -> Void

        public init(send: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void) {
            self.send = send
            self.close = close
        }
    }

    /// The channels of a CLI-generated app: every connection joins `anonymous`; signing in moves
    /// it to `authenticated`, which every service event is published to.
    public enum Channel: String, Sendable, Hashable {
        case anonymous, authenticated
    }

    private struct State {
        var joined = false
        var closed = false
        var channels: Set<Channel> = []
        /// The access token the connection signed in with.
        var token: String?
        /// Disconnects the connection when its token expires.
        var expiry: RealtimeTimer?
        var subscription: FeathersEventHub.Subscription?
        /// Events held by the app's event delay, oldest first (each timer sends the oldest).
        var held: [String] = []
    }

    public let app: FeathersApp
    /// The Socket.IO revision: 5 for a v5 app, 4 (socket.io 2.x) for a v4 app.
    public let revision: SocketIOProtocol
    /// This connection's id in the main namespace (the `sid` of the CONNECT answer).
    public let id: String
    /// The token in the `Authorization` header of the request that opened the Engine.IO session.
    private let handshakeToken: String?
    private let output: Output
    private let clock: any RealtimeClock
    private let state = Mutex(State())

    public init(
        app: FeathersApp, id: String, handshakeAuthorization: String?, output: Output,
        clock: any RealtimeClock = DispatchRealtimeClock()
    ) {
        self.app = app
        self.clock = clock
        self.id = id
        revision = app.dialect == .v4 ? .v4 : .v5
        handshakeToken = FeathersAuthentication.token(fromAuthorization: handshakeAuthorization)
        self.output = output
    }

    /// Whether its Engine.IO session still carries it.
    var isOpen: Bool { state.withLock { !$0.closed } }

    /// The channels the connection is in now.
    public var channels: Set<Channel> { state.withLock { $0.channels } }

    /// The Engine.IO session is open: a socket.io 2.x server joins the main namespace at once.
    public func opened() {
        guard revision == .v4 else { return }
        join()
        output.send(SocketIOPacket(.connect).encoded)
        app.report(RealtimeActivity(kind: .connected, connection: id, name: "Socket.IO 4"))
    }

    /// One Socket.IO packet's text from the client.
    public func received(_ text: String) {
        // A polling POST's packets are handed over one by one after the body is read; once an
        // earlier one's answer has ended the session (its outbox full), the rest are not run.
        guard isOpen else { return }
        guard let packet = try? SocketIOPacket.decode(text, protocol: revision) else { return output.close() }
        if packet.namespace != "/" {
            // Feathers serves the main namespace alone.
            guard packet.type == .connect else { return output.close() }
            let refusal: JSONValue = revision == .v5 ? ["message": "Invalid namespace"] : "Invalid namespace"
            return output.send(SocketIOPacket(.connectError, namespace: packet.namespace, data: refusal).encoded)
        }
        switch packet.type {
        case .connect:
            connect()
        case .disconnect:
            if leave() {
                app.report(RealtimeActivity(kind: .disconnected, connection: id, name: "client namespace disconnect"))
            }
        case .event:
            guard state.withLock({ $0.joined }) else { return output.close() }
            guard case .array(let elements)? = packet.data, case .string(let name)? = elements.first else { return }
            call(name, Array(elements.dropFirst()), ackID: packet.ackID)
        case .ack, .connectError:
            // Feathers never asks a client for an acknowledgement.
            return
        case .binaryEvent, .binaryAck:
            return output.close()
        }
    }

    /// The Engine.IO session has ended (`reason` in engine.io's words): the connection leaves
    /// its channels.
    public func closed(reason: String = "transport close") {
        state.withLock { $0.closed = true }
        if leave() { app.report(RealtimeActivity(kind: .disconnected, connection: id, name: reason)) }
    }

    /// The connection as the control plane lists it.
    func description(transport: EngineIOTransport) -> RealtimeConnection {
        let (signedIn, channels) = state.withLock { ($0.token != nil, $0.channels.map(\.rawValue).sorted()) }
        let protocolName = revision == .v5 ? "Engine.IO 4, Socket.IO 5" : "Engine.IO 3, Socket.IO 4"
        return RealtimeConnection(
            id: id, transport: transport.rawValue, protocolName: protocolName, signedIn: signedIn, channels: channels)
    }

    /// Sends a pushed event's packet when the connection is in `audience`.
    /// - Returns: whether it was sent.
    func push(_ packet: String, to audience: RealtimeAudience) -> Bool {
        let member = state.withLock { state in
            guard state.joined else { return false }
            switch audience {
            case .all: return true
            case .authenticated: return state.channels.contains(.authenticated)
            case .anonymous: return state.token == nil
            }
        }
        if member { sendEvent(packet) }
        return member
    }

    /// An event's packet, after the app's event delay when there is one; events keep their order.
    private func sendEvent(_ packet: String) {
        let delay = app.realtime.eventDelayMilliseconds
        let holding = state.withLock { state in
            guard delay > 0 || !state.held.isEmpty else { return false }
            state.held.append(packet)
            return true
        }
        guard holding else { return output.send(packet) }
        _ = clock.schedule(afterMilliseconds: delay) { [weak self] in
            guard let self, let next = self.state.withLock({ $0.held.isEmpty ? nil : $0.held.removeFirst() }) else {
                return
            }
            self.output.send(next)
        }
    }

    // MARK: Joining

    /// Revision 5's CONNECT: a token in the handshake's `Authorization` header signs the
    /// connection in first (Feathers' socket middleware), or refuses it.
    private func connect() {
        if state.withLock({ $0.joined }) { return }
        if revision == .v5, let token = handshakeToken {
            let answer = app.socketCall(
                "create", ["authentication", ["strategy": "jwt", "accessToken": .string(token)]], token: nil)
            guard case .signedIn(let token, let result) = answer else {
                return output.send(SocketIOPacket(.connectError, data: Self.connectRefusal(answer)).encoded)
            }
            // Signed in before the connection event joins `anonymous`: it ends up in both channels.
            signIn(token, result)
            join()
        } else {
            join()
        }
        output.send(SocketIOPacket(.connect, data: ["sid": .string(id)]).encoded)
        app.report(RealtimeActivity(kind: .connected, connection: id, name: "Socket.IO 5"))
    }

    /// CONNECT_ERROR's data: the error's message, and its `data` when it has some.
    private static func connectRefusal(_ answer: FeathersSocketAnswer) -> JSONValue {
        guard case .acknowledgement(let arguments) = answer, case .object(let error)? = arguments.first else {
            return ["message": "Not authenticated"]
        }
        var refusal: JSONObject = ["message": error["message"] ?? "Not authenticated"]
        if let data = error["data"] { refusal["data"] = data }
        return .object(refusal)
    }

    private func join() {
        let subscription = app.events.add { [weak self] event in self?.publish(event) ?? false }
        let stale = state.withLock { state -> FeathersEventHub.Subscription? in
            guard !state.closed else { return subscription }
            state.joined = true
            state.channels.insert(.anonymous)
            let previous = state.subscription
            state.subscription = subscription
            return previous
        }
        if let stale { app.events.remove(stale) }
    }

    /// Leaves the namespace and its channels. - Returns: whether it had joined.
    @discardableResult
    private func leave() -> Bool {
        let (wasJoined, subscription) = state.withLock { state -> (Bool, FeathersEventHub.Subscription?) in
            let wasJoined = state.joined
            state.joined = false
            state.channels = []
            state.token = nil
            state.expiry?.cancel()
            state.expiry = nil
            defer { state.subscription = nil }
            return (wasJoined, state.subscription)
        }
        if let subscription { app.events.remove(subscription) }
        return wasJoined
    }

    /// Signing in moves the connection to `authenticated`, and arms the token's expiry: at its
    /// `exp` the server disconnects the connection (`1`), as Feathers' jwt strategy does.
    private func signIn(_ token: String, _ result: JSONValue) {
        let expiresIn = result["authentication"]?["payload"]?["exp"]?.intValue.map { exp in
            (Double(exp) - app.clock().timeIntervalSince1970) * 1000
        }
        let timer = expiresIn.map { milliseconds in
            clock.schedule(afterMilliseconds: Int(max(0, min(milliseconds, Double(Int32.max))))) { [weak self] in
                self?.tokenExpired(token)
            }
        }
        state.withLock { state in
            state.token = token
            state.expiry?.cancel()
            state.expiry = timer
            state.channels.remove(.anonymous)
            state.channels.insert(.authenticated)
        }
    }

    /// Signing out leaves every channel, `anonymous` included, and forgets the token.
    private func signOut() {
        state.withLock { state in
            state.token = nil
            state.expiry?.cancel()
            state.expiry = nil
            state.channels = []
        }
    }

    private func tokenExpired(_ token: String) {
        guard state.withLock({ $0.token == token && $0.joined }) else { return }
        leave()
        output.send(SocketIOPacket(.disconnect).encoded)
        app.report(RealtimeActivity(kind: .disconnected, connection: id, name: "server namespace disconnect"))
    }

    // MARK: Calls and events

    private func call(_ name: String, _ arguments: [JSONValue], ackID: Int?) {
        let (method, callArguments, acknowledges) = legacyForm(name, arguments)
        let token = state.withLock { $0.token }
        let answer = app.socketCall(method, callArguments, token: token)
        let operation = if case .string(let path)? = callArguments.first { path + "." + method } else { method }
        let acknowledgement: [JSONValue]
        switch answer {
        case .noListener:
            app.report(RealtimeActivity(kind: .call, connection: id, name: operation, data: .array(callArguments)))
            return
        case .acknowledgement(let arguments): acknowledgement = arguments
        case .signedIn(let token, let result):
            signIn(token, result)
            acknowledgement = [.null, result]
        case .signedOut(let result):
            signOut()
            acknowledgement = [.null, result]
        }
        let acknowledged = ackID != nil && acknowledges
        app.report(
            RealtimeActivity(
                kind: .call, connection: id, name: operation, data: .array(callArguments),
                answer: acknowledged ? .array(acknowledgement) : nil))
        if let ackID, acknowledged { output.send(SocketIOPacket.ack(ackID, acknowledgement).encoded) }
    }

    /// Feathers 4's legacy events, as a v4 app still takes them: `authenticate(data)`,
    /// `logout()` and `<path>::<method>(…args)`. A v5 app has no listener for any of them,
    /// unless `compat.swiftSocket` asks for feathers-swift-socketio's forms (``FeathersCompat``).
    private func legacyForm(_ name: String, _ arguments: [JSONValue]) -> (String, [JSONValue], acknowledges: Bool) {
        if app.compat.swiftSocket {
            // `emitWithAck(name, [path] + args)`: the whole call nested in one array.
            var (name, arguments) = (name, arguments)
            if arguments.count == 1, case .array(let nested) = arguments[0], case .string? = nested.first {
                arguments = nested
            }
            if name == "removed" { name = "remove" }
            if name == "authenticate" || name == "logout" { return legacyEvent(name, arguments) }
            return (name, arguments, true)
        }
        guard app.dialect == .v4 else { return (name, arguments, true) }
        return legacyEvent(name, arguments)
    }

    private func legacyEvent(_ name: String, _ arguments: [JSONValue]) -> (String, [JSONValue], acknowledges: Bool) {
        if name == "authenticate" { return ("create", [.string("authentication")] + arguments.prefix(1), true) }
        // `logout(callback)`: an argument where the callback belongs means no acknowledgement.
        if name == "logout" { return ("remove", ["authentication", .null], arguments.isEmpty) }
        if let separator = name.firstRange(of: "::") {
            return (
                String(name[separator.upperBound...]), [.string(String(name[..<separator.lowerBound]))] + arguments,
                true
            )
        }
        return (name, arguments, true)
    }

    /// A service event: sent when the connection is in the `authenticated` channel, the one a
    /// generated app publishes every event to.
    private func publish(_ event: FeathersEvent) -> Bool {
        guard state.withLock({ $0.channels.contains(.authenticated) }) else { return false }
        sendEvent(event.packet)
        return true
    }
}
