import Dispatch
import Foundation
import MockStackCore
import MockStackWebSocket
import Synchronization
import Testing
import TestSupport

/// What a well-behaved client library will not send, over a raw socket: unmasked and invalid
/// frames, bad handshakes, a first frame in the handshake's packet, a client that never reads.
@Suite(.timeLimit(.minutes(3)))
struct RawWebSocketTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static func handshake(_ path: String = "/echo", version: String = "HTTP/1.1", key: String = key, extra: String = "") -> String {
        "GET \(path) \(version)\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n\(extra)\r\n"
    }

    static func client(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        WebSocketFrame.encode(opcode, payload, mask: [0xA1, 0xB2, 0xC3, 0xD4])
    }

    static func closeFrame(_ code: WebSocketCloseCode, _ reason: String) -> [UInt8] {
        WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason: reason))
    }

    /// Connects and completes the handshake. - Returns: the connection and the 101.
    static func open(_ server: EchoServer, path: String = "/echo") throws -> (RawConnection, RawResponse) {
        let connection = try RawConnection(port: server.port)
        try connection.send(handshake(path))
        let response = try connection.readResponse(headOnly: true)
        return (connection, response)
    }

    @Test func switchesProtocolsWithTheAcceptValue() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (_, response) = try Self.open(server)
        #expect(response.statusLine == "HTTP/1.1 101 Switching Protocols")
        #expect(response.header("Upgrade") == "websocket")
        #expect(response.header("Connection") == "Upgrade")
        #expect(response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.header("Content-Length") == nil)
    }

    /// A client's first frame in the same packet as its handshake is read, not lost.
    @Test func readsAFrameSentWithTheHandshake() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send(Array(Self.handshake().utf8) + Self.client(.text, Array("early".utf8)) + Self.client(.close, []))
        let (bytes, end) = connection.readToEnd()
        let head = try #require(RawResponse.parse(bytes, headOnly: true))
        #expect(head.status == 101)
        #expect(Array(bytes[head.length...]) == WebSocketFrame.encode(.text, Array("early".utf8)) + [0x88, 0])
        #expect(end == .closed)
    }

    @Test func anUnmaskedFrameClosesWith1002() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (connection, _) = try Self.open(server)
        try connection.send(WebSocketFrame.encode(.text, Array("bare".utf8)))
        let (bytes, end) = connection.readToEnd()
        #expect(bytes == Self.closeFrame(.protocolError, "a client frame must be masked"))
        #expect(end == .closed)
        #expect(server.waitForClose())
        #expect(server.closeList == ["/echo 1002 a client frame must be masked"])
    }

    @Test func invalidUTF8TextClosesWith1007() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (connection, _) = try Self.open(server)
        try connection.send(Self.client(.text, [0x68, 0xC3, 0x28]))
        let (bytes, end) = connection.readToEnd()
        #expect(bytes == Self.closeFrame(.invalidPayload, "a text message that is not UTF-8"))
        #expect(end == .closed)
    }

    @Test func refusesBadHandshakes() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let badKey = try rawExchange(port: server.port, Self.handshake(key: "short"))
        #expect(badKey.status == 400)
        #expect(badKey.text == #"{"status":400,"error":"Bad Request","message":"Sec-WebSocket-Key must be the base64 of 16 bytes"}"#)

        let version = try rawExchange(port: server.port, Self.handshake().replacingOccurrences(of: "Version: 13", with: "Version: 8"))
        #expect(version.status == 426)
        #expect(version.header("Sec-WebSocket-Version") == "13")
        #expect(version.text == #"{"status":426,"error":"Upgrade Required","message":"Unsupported Sec-WebSocket-Version: only 13 is spoken"}"#)

        let plain = try rawExchange(port: server.port, "GET /echo HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(plain.status == 426)
        #expect(plain.header("Upgrade") == "websocket")

        let old = try rawExchange(port: server.port, Self.handshake(version: "HTTP/1.0"))
        #expect(old.status == 400)
        #expect(old.header("Connection") == "close")
        #expect(old.text == #"{"status":400,"error":"Bad Request","message":"Switching protocols needs HTTP/1.1"}"#)

        // The connection serves HTTP on after a refusal that does not close it.
        let connection = try RawConnection(port: server.port)
        try connection.send(Self.handshake(key: "short"))
        #expect(try connection.readResponse().status == 400)
        try connection.send(Self.handshake())
        #expect(try connection.readResponse(headOnly: true).status == 101)
    }

    /// Sends from a thread that is no loop's keep their order.
    @Test func sendsFromAnyThreadInOrder() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (connection, _) = try Self.open(server)
        #expect(server.waitForOpen())
        let socket = try #require(server.firstSocket)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for index in 0..<200 { socket.send(text: "message \(index)") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        socket.close(code: .normal, reason: "done")
        var expected = (0..<200).flatMap { WebSocketFrame.encode(.text, Array("message \($0)".utf8)) }
        expected += Self.closeFrame(.normal, "done")
        var received: [UInt8] = []
        while received.count < expected.count {
            let (bytes, end) = try connection.readSome()
            received += bytes
            if end { break }
        }
        #expect(received == expected)
        #expect(!socket.send(text: "after close"))
        try connection.send(Self.client(.close, WebSocketFrame.closePayload(.normal, reason: "")))
        #expect(connection.readToEnd() == ([], .closed))
    }

    /// A close we start ends the connection after the close timeout when the client never answers.
    @Test func aCloseUnansweredEndsTheConnection() throws {
        let server = try EchoServer()
        defer { server.stop() }
        let (connection, _) = try Self.open(server, path: "/quick")
        try connection.send(Self.client(.text, Array("close-me".utf8)))
        let (bytes, end) = connection.readToEnd()
        #expect(bytes == Self.closeFrame(WebSocketCloseCode(4000), "as asked"))
        #expect(end == .closed)
        #expect(server.waitForClose())
        #expect(server.closeList == ["/quick 1006 no close frame from the client in time"])
    }

    @Test func aGracefulStopClosesWith1001() throws {
        let server = try EchoServer()
        let (connection, _) = try Self.open(server)
        #expect(server.waitForOpen())
        server.stop()
        let (bytes, end) = connection.readToEnd()
        #expect(bytes == Self.closeFrame(.goingAway, "server stopping"))
        #expect(end == .closed)
        #expect(server.closeList == ["/echo 1001 server stopping"])
    }

    /// The HTTP idle timeout no longer applies once the connection is upgraded.
    @Test func anUpgradedConnectionOutlivesTheIdleTimeout() throws {
        let server = try EchoServer(timeoutSeconds: 1)
        defer { server.stop() }
        let (connection, _) = try Self.open(server)
        // An HTTP connection opened after it is closed by the idle sweep (the read returns once
        // the server closes it, past the timeout); the upgraded one, idle longer, is not.
        let idle = try RawConnection(port: server.port)
        #expect(idle.readToEnd() == ([], .closed))
        try connection.send(Self.client(.text, Array("still here".utf8)))
        let (bytes, _) = try connection.readSome()
        #expect(bytes == WebSocketFrame.encode(.text, Array("still here".utf8)))
    }

    /// A client that never reads cannot make the server hold its output without end.
    @Test func aClientThatNeverReadsIsDropped() throws {
        let server = try EchoServer(unsentOutputLimit: 256 * 1024)
        defer { server.stop() }
        let (connection, _) = try Self.open(server)
        // A small receive buffer, so that the kernel holds at most a few MiB for this client.
        var size: Int32 = 16 * 1024
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        #expect(server.waitForOpen())
        let socket = try #require(server.firstSocket)
        // 16 MiB, four times what loopback buffers take: past them, 256 KiB wait and the stream is dropped.
        let piece = [UInt8](repeating: 7, count: 64 * 1024)
        for _ in 0..<256 where socket.send(binary: piece) {}
        #expect(server.waitForClose())
        #expect(server.closeList == ["/echo 1006 "])
        #expect(!socket.isOpen)
        _ = connection
    }

    /// A client that stops reading holds up no other: while what the server owes it piles up
    /// to the limit and it is dropped, a client sent the same messages reads each one before
    /// the next is sent, in order (sent from a thread that is no loop, to both sockets in turn).
    @Test func aClientThatStopsReadingHoldsUpNoOther() throws {
        let server = try EchoServer(unsentOutputLimit: 256 * 1024)
        defer { server.stop() }
        let (stalled, _) = try Self.open(server)
        var size: Int32 = 16 * 1024
        setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        #expect(server.waitForOpen())
        let (reader, _) = try Self.open(server)
        #expect(server.waitForOpen())
        let sockets = server.sockets.withLock { $0 }
        try #require(sockets.count == 2)
        // 256 messages of 60 KiB, 15 MiB, past what loopback buffers hold for the stalled client.
        var received: [UInt8] = []
        var expected: [UInt8] = []
        for index in 0..<256 {
            let message = [UInt8](repeating: UInt8(index & 0xFF), count: 60 * 1024)
            for socket in sockets { socket.send(binary: message) }
            expected += WebSocketFrame.encode(.binary, message)
            // Each message is read before the next is sent (or the read times out after 5 s).
            while received.count < expected.count {
                let (bytes, end) = try reader.readSome()
                received += bytes
                if end { break }
            }
            try #require(received.count == expected.count, "message \(index) did not arrive whole")
        }
        #expect(received == expected)
        #expect(server.waitForClose())
        #expect(server.closeList == ["/echo 1006 "])
        #expect(!sockets[0].isOpen)
        #expect(sockets[1].isOpen)
        _ = stalled
    }
}

extension RawConnection {
    /// What one read returns, and whether the peer closed.
    func readSome() throws -> ([UInt8], Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return ([], true) }
        guard count > 0 else { throw RawHTTPError("read failed: errno \(errno)") }
        return (Array(buffer[0..<count]), false)
    }
}
