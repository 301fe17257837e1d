import Dispatch
import MockStackCore
@testable import MockStackTransport
import MockStackWebSocket
import Synchronization
import Synchronization

/// The real server on port 0 with WebSocket endpoints for the end-to-end tests:
/// `/echo` echoes every message (the text `close-me` makes it close with 4000 "as asked"),
/// `/small` is the same with a 1 KiB message limit, `/quick` closes 100 ms after waiting for a
/// close, and `GET /broadcast?text=…` sends the text to every open socket from the loop that
/// answers it.
final class EchoServer: Sendable {
    let sockets = Mutex<[WebSocket]>([])
    let closes = Mutex<[(path: String, code: WebSocketCloseCode, reason: String)]>([])
    private let closed = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)
    let server: HTTPServer
    let port: Int

    struct Echo: WebSocketDelegate {
        let owner: EchoServer

        func opened(_ socket: WebSocket) {
            owner.sockets.withLock { $0.append(socket) }
            owner.opened.signal()
        }

        func received(_ message: WebSocketMessage, on socket: WebSocket) {
            if message == .text("close-me") { return socket.close(code: WebSocketCloseCode(4000), reason: "as asked") }
            socket.send(message)
        }

        func closed(_ socket: WebSocket, code: WebSocketCloseCode, reason: String) {
            owner.sockets.withLock { $0.removeAll { $0 === socket } }
            owner.closes.withLock { $0.append((socket.request.path, code, reason)) }
            owner.closed.signal()
        }
    }

    init(threads: Int = 2, unsentOutputLimit: Int? = nil, timeoutSeconds: Int? = nil) throws {
        var configuration = TransportConfiguration()
        configuration.threads = threads
        if let timeoutSeconds { configuration.timeoutSeconds = timeoutSeconds }
        configuration.shutdownGraceMilliseconds = 2_000
        let box = Mutex<EchoServer?>(nil)
        let responder = ClosureResponder { request in
            guard let owner = box.withLock({ $0 }) else { return PlainError.response(503, "starting") }
            return owner.respond(to: request, unsentOutputLimit: unsentOutputLimit)
        }
        server = HTTPServer(configuration: configuration, listeners: [ListenerSpec(label: "main", port: 0, responder: responder)])
        port = try server.start()[0].port
        box.withLock { $0 = self }
    }

    private func respond(to request: HTTPRequest, unsentOutputLimit: Int?) -> HTTPResponse {
        var configuration = WebSocketConfiguration()
        if let unsentOutputLimit { configuration.unsentOutputLimit = unsentOutputLimit }
        switch request.path {
        case "/echo":
            break
        case "/small":
            configuration.maxMessageBytes = 1024
        case "/quick":
            configuration.closeTimeoutMilliseconds = 100
        case "/broadcast":
            let text = request.query.map { String($0.dropFirst("text=".count)) } ?? ""
            let sockets = self.sockets.withLock { $0 }
            let sent = sockets.filter { $0.send(text: text) }.count
            return .json(200, ["sent": .number(JSONNumber(sent))])
        default:
            return PlainError.response(404, "no such path")
        }
        return WebSocketHandshake.response(to: request, configuration: configuration, delegate: Echo(owner: self))
    }

    /// Waits for the next socket to open, or for the next close the delegate hears.
    func waitForOpen() -> Bool { opened.wait(timeout: .now() + 5) == .success }
    func waitForClose() -> Bool { closed.wait(timeout: .now() + 5) == .success }

    func stop() { server.shutdown() }

    /// The closes the delegate heard, as "path code reason".
    var closeList: [String] { closes.withLock { $0.map { "\($0.path) \($0.code) \($0.reason)" } } }
    /// The first socket open now.
    var firstSocket: WebSocket? { sockets.withLock { $0.first } }
}
