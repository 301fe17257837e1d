import Foundation
import MockStackCore
@testable import MockStackTransport
import Synchronization
import Testing
import TestSupport

/// A streamed body (`Delivery.streamed`) byte by byte from a raw socket: its head at once, each
/// serve of the stream's output as one chunk, the last chunk on close and none on a cut, HTTP/1.0's
/// unframed body, the answers sent whole instead, and the ways the stream ends.
@Suite(.timeLimit(.minutes(3)))
struct StreamedBodyTests {
    private static let request = "GET /events HTTP/1.1\r\nHost: t\r\n\r\n"

    /// A streamed answer whose handlers follow `script`; the probe counts them and their ends.
    private static func streamed(
        _ probe: StreamProbe, status: Int = 200, body: String = "", unsentOutputLimit: Int = 1 << 20,
        _ script: StreamScript
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/event-stream"], body: Array(body.utf8),
            delivery: .streamed(StreamedBody(unsentOutputLimit: unsentOutputLimit) { probe.made(script) }))
    }

    private static func withStreamingServer(
        _ probe: StreamProbe, _ script: StreamScript, _ body: (Int, HTTPServer) throws -> Void
    ) throws {
        try TransportTests.withServer(respond: { request in
            request.path == "/plain" ? .json(200, ["plain": .bool(true)]) : streamed(probe, script)
        }, body)
    }

    @Test func theHeadGoesOutAtOnceThenEachServeIsOneChunkAndCloseSendsTheLastChunk() throws {
        let probe = StreamProbe()
        let script = StreamScript(
            started: { $0.write(Array("id: 1\n\n".utf8)) },
            received: { stream, bytes in
                stream.write(Array("echo ".utf8) + bytes)
                if bytes == Array("end".utf8) { stream.close() }
            })
        try Self.withStreamingServer(probe, script) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send(Self.request)
            let (head, first) = try connection.readHead(through: "id: 1\n\n\r\n")
            #expect(
                head == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                    + "Date: <date>\r\n\r\n")
            #expect(first == "7\r\nid: 1\n\n\r\n")
            try connection.send("more")
            #expect(try connection.read(through: "more\r\n") == "9\r\necho more\r\n")
            try connection.send("end")
            let (rest, end) = connection.readToEnd()
            #expect(String(decoding: rest, as: UTF8.self) == "8\r\necho end\r\n0\r\n\r\n")
            #expect(end == .closed)
            #expect(probe.ended.wait(timeout: .now() + 10) == .success)
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    @Test func writesMadeInOneLoopTurnLeaveAsOneChunkBehindTheResponsesOwnBody() throws {
        let probe = StreamProbe()
        let script = StreamScript(
            started: { stream in
                for piece in ["a", "b", "c"] { stream.write(Array(piece.utf8)) }
            },
            received: { stream, _ in
                stream.write(Array("de".utf8))
                stream.write(Array("f".utf8))
                stream.close()
            })
        try TransportTests.withServer(respond: { _ in Self.streamed(probe, body: "first", script) }) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send(Self.request)
            let (_, body) = try connection.readHead(through: "abc\r\n")
            #expect(body == "5\r\nfirst\r\n3\r\nabc\r\n")
            try connection.send("x")
            let (rest, end) = connection.readToEnd()
            #expect(String(decoding: rest, as: UTF8.self) == "3\r\ndef\r\n0\r\n\r\n")
            #expect(end == .closed)
        }
    }

    @Test func writesFromAnotherThreadArriveInOrder() throws {
        let probe = StreamProbe()
        let frames = (1...200).map { "id: \($0)\ndata: frame\n\n" }
        let script = StreamScript(started: { stream in
            Thread {
                for frame in frames { stream.write(Array(frame.utf8)) }
                stream.close()
            }.start()
        })
        try Self.withStreamingServer(probe, script) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send(Self.request)
            let (bytes, end) = connection.readToEnd()
            #expect(end == .closed)
            let response = try #require(RawResponse.parse(bytes))
            #expect(response.wasChunked && response.header("Content-Length") == nil)
            #expect(response.text == frames.joined())
            // The last chunk ends the bytes: nothing follows it.
            #expect(response.length == bytes.count && Array(bytes.suffix(5)) == ChunkedCoding.lastChunk)
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    @Test func aCutEndsTheConnectionWithoutTheLastChunk() throws {
        let probe = StreamProbe()
        let script = StreamScript(started: { stream in
            stream.write(Array("partial".utf8))
            stream.cut()
            stream.write(Array("ignored".utf8))
            stream.close()
        })
        try Self.withStreamingServer(probe, script) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send(Self.request)
            let (head, body) = try connection.readHead(through: "partial\r\n")
            #expect(head.contains("Transfer-Encoding: chunked\r\n"))
            #expect(body == "7\r\npartial\r\n")
            #expect(connection.readToEnd() == ([], .closed))
            #expect(probe.ended.wait(timeout: .now() + 10) == .success)
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    /// HTTP/1.0 has no chunked coding: the bytes as written, no length, and the close ends the
    /// body, even for a client that asked to keep the connection.
    @Test(arguments: ["", "Connection: keep-alive\r\n"])
    func http10GetsTheBytesAsTheyAreEndedByTheClose(requestField: String) throws {
        let probe = StreamProbe()
        try Self.withStreamingServer(probe, StreamScript(started: writeThenClose("one\n", "two\n"))) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /events HTTP/1.0\r\n\(requestField)\r\n")
            let (bytes, end) = connection.readToEnd()
            #expect(end == .closed)
            let text = String(decoding: bytes, as: UTF8.self).replacingDateValue()
            #expect(
                text == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nDate: <date>\r\n"
                    + "Connection: close\r\n\r\none\ntwo\n")
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    /// HEAD gets the head a GET would (no length: the body would be streamed), and a status
    /// that forbids a body is answered as it is: no stream, no handler, and the connection
    /// serves the next request.
    @Test func headAndBodilessStatusesAreAnsweredWholeWithoutAStream() throws {
        let probe = StreamProbe()
        try TransportTests.withServer(respond: { request in
            switch request.path {
            case "/plain": .json(200, ["plain": .bool(true)])
            case "/none": Self.streamed(probe, status: 204, StreamScript())
            default: Self.streamed(probe, StreamScript())
            }
        }) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send("HEAD /events HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try connection.readResponse(headOnly: true)
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == "chunked" && head.header("Content-Length") == nil)
            try connection.send("GET /none HTTP/1.1\r\nHost: t\r\n\r\n")
            let noContent = try connection.readResponse()
            #expect(noContent.status == 204 && noContent.header("Transfer-Encoding") == nil)
            try connection.send("GET /plain HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().text == #"{"plain":true}"#)
        }
        #expect(probe.tally == StreamTally(made: 0, ends: 0))
    }

    @Test func aDelayedStreamSendsItsHeadAndFirstBytesAfterTheDelay() throws {
        let probe = StreamProbe()
        try TransportTests.withServer(respond: { _ in
            var response = Self.streamed(probe, StreamScript(started: writeThenClose("late")))
            response.delivery = .delayed(milliseconds: 150, then: response.delivery)
            return response
        }) { port, _ in
            let connection = try RawConnection(port: port)
            let started = Date()
            try connection.send(Self.request)
            let response = try connection.readResponse()
            #expect(Date().timeIntervalSince(started) >= 0.14)
            #expect(response.wasChunked && response.text == "late")
            #expect(connection.readToEnd() == ([], .closed))
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    @Test func theClientClosingEndsTheStreamOnce() throws {
        let probe = StreamProbe()
        try Self.withStreamingServer(probe, StreamScript()) { port, server in
            do {
                let connection = try RawConnection(port: port)
                try connection.send(Self.request)
                _ = try connection.readHead()
            }
            #expect(probe.ended.wait(timeout: .now() + 10) == .success)
            #expect(TransportFaultTests.eventually { server.openConnectionCount() == 0 })
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    /// A client that never reads: once more than the body's `unsentOutputLimit` waits for it,
    /// the connection is dropped and the handler hears the end.
    @Test func aClientThatNeverReadsIsDroppedPastTheUnsentOutputLimit() throws {
        let probe = StreamProbe()
        let piece = [UInt8](repeating: UInt8(ascii: "d"), count: 16 * 1024)
        let script = StreamScript(started: { stream in
            Thread {
                // Bounded, so that a stream never dropped fails the test instead of writing for ever.
                for _ in 0..<16_384 where probe.tally.ends == 0 { stream.write(piece) }
            }.start()
        })
        try TransportTests.withServer(respond: { _ in Self.streamed(probe, unsentOutputLimit: 256 * 1024, script) }) {
            port, server in
            let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
            try connection.send(Self.request)
            #expect(probe.ended.wait(timeout: .now() + 20) == .success)
            #expect(TransportFaultTests.eventually { server.openConnectionCount() == 0 })
        }
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }

    @Test func aGracefulStopReachesTheHandlerWhichEndsTheBody() throws {
        let probe = StreamProbe()
        let script = StreamScript(serverStopping: writeThenClose("bye"))
        let responder = ClosureResponder { _ in Self.streamed(probe, script) }
        let server = HTTPServer(
            configuration: TransportConfiguration(),
            listeners: [ListenerSpec(label: "main", port: 0, responder: responder)])
        let port = try server.start()[0].port
        let connection = try RawConnection(port: port)
        try connection.send(Self.request)
        _ = try connection.readHead()
        server.shutdown()
        let (rest, end) = connection.readToEnd()
        #expect(String(decoding: rest, as: UTF8.self) == "3\r\nbye\r\n0\r\n\r\n")
        #expect(end == .closed)
        #expect(probe.tally == StreamTally(made: 1, ends: 1))
    }
}

/// What a test's stream handlers do at each call, on the connection's loop.
private struct StreamScript: Sendable {
    var started: @Sendable (any ByteStream) -> Void = { _ in }
    var received: @Sendable (any ByteStream, [UInt8]) -> Void = { _, _ in }
    var serverStopping: @Sendable (any ByteStream) -> Void = { _ in }
}

/// A script's step that writes `pieces`, one write each, then closes the stream.
private func writeThenClose(_ pieces: String...) -> @Sendable (any ByteStream) -> Void {
    { stream in
        for piece in pieces { stream.write(Array(piece.utf8)) }
        stream.close()
    }
}

/// How many handlers a streamed body made, and how many ends they heard.
private struct StreamTally: Equatable {
    var made = 0
    var ends = 0
}

/// Counts the handlers a streamed body made and the ends they heard; `ended` is signalled at each end.
private final class StreamProbe: Sendable {
    let ended = DispatchSemaphore(value: 0)
    private let counts = Mutex(StreamTally())

    var tally: StreamTally { counts.withLock { $0 } }

    func made(_ script: StreamScript) -> any ByteStreamHandler {
        counts.withLock { $0.made += 1 }
        return ScriptedHandler(script: script, probe: self)
    }

    func streamEnded() {
        counts.withLock { $0.ends += 1 }
        ended.signal()
    }
}

/// A handler that follows its script; called on the loop only, one call at a time.
private final class ScriptedHandler: ByteStreamHandler {
    private let script: StreamScript
    private let probe: StreamProbe
    private var stream: (any ByteStream)?

    init(script: StreamScript, probe: StreamProbe) {
        self.script = script
        self.probe = probe
    }

    func started(on stream: any ByteStream) {
        self.stream = stream
        script.started(stream)
    }

    func received(_ bytes: [UInt8]) { stream.map { script.received($0, bytes) } }
    func serverStopping() { stream.map { script.serverStopping($0) } }

    func streamEnded() {
        stream = nil
        probe.streamEnded()
    }
}

extension RawConnection {
    /// Reads until `done` holds for everything read (the server sends nothing more meanwhile).
    fileprivate func read(until done: (String) -> Bool) throws -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while data.isEmpty || !done(String(decoding: data, as: UTF8.self)) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawHTTPError("\(count == 0 ? "closed" : "failed") after \(data.count) bytes") }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    fileprivate func read(through marker: String) throws -> String { try read { $0.contains(marker) } }

    /// Reads a head, and the body after it through `marker` when one is given: the head with its
    /// `Date` value as `<date>`, and the body so far.
    fileprivate func readHead(through marker: String? = nil) throws -> (head: String, body: String) {
        let text = try read { text in
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            return marker.map { text[end.upperBound...].contains($0) } ?? true
        }
        guard let end = text.range(of: "\r\n\r\n") else { throw RawHTTPError("no head in \(text)") }
        return (String(text[..<end.upperBound]).replacingDateValue(), String(text[end.upperBound...]))
    }
}

extension String {
    /// The text with the value of its `Date` line as `<date>`.
    fileprivate func replacingDateValue() -> String {
        replacingOccurrences(of: #"Date: [^\r]+\r\n"#, with: "Date: <date>\r\n", options: .regularExpression)
    }
}
