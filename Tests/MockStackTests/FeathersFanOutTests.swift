import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTransport
import Testing
import TestSupport

/// Feathers events fanned out to socket clients, over raw WebSockets: a client that stops
/// reading holds up no other.
@Suite(.timeLimit(.minutes(1)))
struct FeathersFanOutTests {
    /// One signed-in Socket.IO client on a WebSocket (Engine.IO 4 from the start), frames by hand.
    final class SocketClient {
        let connection: RawConnection
        private var buffer: [UInt8] = []

        init(port: Int, token: String, receiveBuffer: Int32? = nil) throws {
            connection = try RawConnection(port: port)
            if var size = receiveBuffer {
                setsockopt(connection.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            try connection.send("GET /feathers/socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Authorization: Bearer \(token)\r\n\r\n")
            // The 101's head, and what came with it (the Engine.IO open packet, often).
            var head = RawResponse.parse(buffer, headOnly: true)
            while head == nil {
                buffer += try readSome()
                head = RawResponse.parse(buffer, headOnly: true)
            }
            let response = try #require(head)
            try #require(response.status == 101)
            buffer.removeFirst(response.length)
            try #require(try nextMessage().hasPrefix("0{"))
            try send("40")
            try #require(try nextMessage().hasPrefix("40{"))
        }

        /// A masked text frame (payloads under 126 bytes).
        func send(_ text: String) throws {
            let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
            let payload = Array(text.utf8)
            try connection.send([0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] })
        }

        /// The next text message from the server (the read times out after 5 s).
        func nextMessage() throws -> String {
            while true {
                if let (text, length) = Self.frame(in: buffer) {
                    buffer.removeFirst(length)
                    return text
                }
                buffer += try readSome()
            }
        }

        /// What one read returns (it times out after 5 s).
        private func readSome() throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 65_536)
            let count = bytes.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawHTTPError(count == 0 ? "the server closed the connection" : "read failed: errno \(errno)") }
            return Array(bytes[0..<count])
        }

        /// The next message that is not the server's ping (answered, as a client must: a slow run
        /// may outlast the ping interval).
        func nextPacket() throws -> String {
            while true {
                let message = try nextMessage()
                guard message == "2" else { return message }
                try send("3")
            }
        }

        /// The first whole unmasked frame's text and length, if `bytes` holds one.
        private static func frame(in bytes: [UInt8]) -> (String, Int)? {
            guard bytes.count >= 2 else { return nil }
            var length = Int(bytes[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard bytes.count >= 4 else { return nil }
                length = Int(bytes[2]) << 8 | Int(bytes[3])
                offset = 4
            } else if length == 127 {
                guard bytes.count >= 10 else { return nil }
                length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard bytes.count >= offset + length else { return nil }
            return (String(decoding: bytes[offset..<offset + length], as: UTF8.self), offset + length)
        }
    }

    /// While the events owed to a client that stopped reading pile up until it is dropped (its
    /// unsent output past the limit), a client signed in beside it hears each event before the
    /// next create, in order. Two loops: the REST request's loop sends to its own sockets and,
    /// as the kernel spreads them, to the other's.
    @Test func aClientThatStopsReadingHoldsUpNoOther() throws {
        let mock = try InProcessMockStack.shipped(["feathers"]) { $0.transport.threads = 2 }
        defer { mock.stop() }
        let port = mock.ready.port
        let body = #"{"strategy":"local","email":"test@example.com","password":"secret"}"#
        let login = try rawExchange(port: port, "POST /feathers/authentication HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let token = try #require(try JSONParser().parse(login.body).root["accessToken"]?.stringValue)
        // A small receive buffer: the kernel holds a few MiB at most for the stalled client.
        let stalled = try SocketClient(port: port, token: token, receiveBuffer: 16 * 1024)
        let reader = try SocketClient(port: port, token: token)
        // 200 events of 48 KiB, 9.4 MiB: past loopback's buffers and the 4 MiB of unsent output.
        let filler = String(repeating: "x", count: 48 * 1024)
        for index in 0..<200 {
            let person = #"{"name":"\#(index) \#(filler)"}"#
            let created = try rawExchange(port: port, "POST /feathers/people HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(person.utf8.count)\r\n\r\n\(person)")
            try #require(created.status == 201)
            let event = try reader.nextPacket()
            try #require(event.hasPrefix(#"42["people created",{"#) && event.contains(#""name":"\#(index) x"#), "event \(index): \(event.prefix(60))")
        }
        let sockets = try rawExchange(port: port, "GET /__mockstack/sockets HTTP/1.1\r\nHost: t\r\n\r\n")
        let listed = try JSONParser().parse(sockets.body).root
        #expect(listed["sockets"]?.arrayValue?.count == 1, "\(String(decoding: sockets.body, as: UTF8.self).prefix(300))")
        _ = stalled
    }
}
