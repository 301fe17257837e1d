import MockStackCore
@testable import MockStackWebSocket
import Testing

struct HandshakeTests {
    struct Silent: WebSocketDelegate {
        func received(_ message: WebSocketMessage, on socket: WebSocket) {}
    }

    static func request(method: HTTPMethod = .get, _ headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: method, target: "/echo?x=1", headers: headers)
    }

    static let valid: HTTPHeaders = ["Host": "t", "Upgrade": "websocket", "Connection": "Upgrade",
                                     "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]

    /// RFC 6455 §1.3's example.
    @Test func computesTheAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func answersAValidHandshakeWith101() {
        let response = WebSocketHandshake.response(to: Self.request(Self.valid), delegate: Silent())
        #expect(response.status == 101)
        #expect(response.headers["Upgrade"] == "websocket")
        #expect(response.headers["Connection"] == "Upgrade")
        #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.headers["Sec-WebSocket-Protocol"] == nil)
        #expect(response.body.isEmpty)
        guard case .upgrade = response.delivery else { Issue.record("not an upgrade: \(response.delivery)"); return }
    }

    @Test func tokensAreCaseInsensitiveAndListed() {
        var headers = Self.valid
        headers.set("Upgrade", "WebSocket")
        headers.set("Connection", "keep-alive, UPGRADE")
        #expect(WebSocketHandshake.response(to: Self.request(headers), delegate: Silent()).status == 101)
    }

    @Test func choosesTheFirstServedSubprotocolTheClientOffers() {
        var headers = Self.valid
        headers.add("Sec-WebSocket-Protocol", "chat, superchat")
        let configuration = WebSocketConfiguration(subprotocols: ["superchat", "chat"])
        let response = WebSocketHandshake.response(to: Self.request(headers), configuration: configuration, delegate: Silent())
        #expect(response.headers["Sec-WebSocket-Protocol"] == "superchat")
        let none = WebSocketHandshake.response(to: Self.request(headers), configuration: WebSocketConfiguration(subprotocols: ["mqtt"]), delegate: Silent())
        #expect(none.status == 101 && none.headers["Sec-WebSocket-Protocol"] == nil)
    }

    @Test func refusesWhatIsNotAHandshake() {
        func answer(method: HTTPMethod = .get, _ change: (inout HTTPHeaders) -> Void) -> HTTPResponse {
            var headers = Self.valid
            change(&headers)
            return WebSocketHandshake.response(to: Self.request(method: method, headers), delegate: Silent())
        }
        let post = answer(method: .post) { _ in }
        #expect(post.status == 405 && post.headers["Allow"] == "GET")

        let notUpgrade = PlainError.response(426, "This is a WebSocket endpoint: the request needs 'Upgrade: websocket' and 'Connection: Upgrade'",
                                             headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        #expect(answer { $0.remove("Upgrade") } == notUpgrade)
        #expect(answer { $0.set("Upgrade", "h2c") } == notUpgrade)
        #expect(answer { $0.set("Connection", "keep-alive") } == notUpgrade)

        let version = PlainError.response(426, "Unsupported Sec-WebSocket-Version: only 13 is spoken", headers: ["Sec-WebSocket-Version": "13"])
        #expect(answer { $0.set("Sec-WebSocket-Version", "8") } == version)
        #expect(answer { $0.remove("Sec-WebSocket-Version") } == version)

        let key = PlainError.response(400, "Sec-WebSocket-Key must be the base64 of 16 bytes")
        for bad in ["", "abc", "dGhlIHNhbXBsZSBub25j", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZSE=", "dGhlIHNhbXBsZSBub25j*Q=="] {
            #expect(answer { $0.set("Sec-WebSocket-Key", bad) } == key, "\(bad)")
        }
        #expect(answer { $0.remove("Sec-WebSocket-Key") } == key)
    }
}
