import Foundation
import MockStackCore
@testable import MockStackTransport
import Testing
import TestSupport

/// What one client can make the server hold: input it sends faster than it takes the answers,
/// output it never takes, and a connection it keeps alive with nothing but empty lines. Each
/// must stay within its documented bound (docs/transport.md#limits) and end at the timeout.
@Suite(.timeLimit(.minutes(3)))
struct BackPressureTests {
    private static let body = [UInt8](repeating: UInt8(ascii: "b"), count: 64 * 1024)

    private static func respond(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/slow": HTTPResponse(status: 200, body: Array("slow".utf8), delivery: .throttled(bytesPerSecond: 1))
        case "/upgrade": HTTPResponse(status: 101, headers: ["Upgrade": "test"], delivery: .upgrade(ConnectionUpgrade { FloodingHandler() }))
        default: HTTPResponse(status: 200, body: body)
        }
    }

    /// Pipelined requests behind an answer that is still going out (a throttled one, or answers
    /// the client does not read) stop being read once a bound of them waits: the client's sends
    /// then block, with the kernel's buffers and the server's bound full, instead of the server
    /// taking everything sent.
    @Test(arguments: [true, false])
    func pipelinedInputStopsBeingReadWhileOutputIsBackedUp(behindAThrottle: Bool) throws {
        try TransportTests.withServer(respond: Self.respond) { port, _ in
            let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
            if behindAThrottle { try connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n") }
            let request = Array("GET /x HTTP/1.1\r\nHost: t\r\nX-Pad: \(String(repeating: "p", count: 990))\r\n\r\n".utf8)
            let accepted = connection.sendRepeatedly(request, upTo: 96 << 20, stallSeconds: 2)
            // Loopback's socket buffers take some megabytes at most; the server, 1 MiB of input.
            #expect(accepted < 24 << 20, "\(accepted) bytes accepted")
        }
    }

    /// Empty lines before a request line are read as the start of a request: they do not keep a
    /// connection open past the timeout.
    @Test func emptyLinesDoNotKeepAConnectionPastTheTimeout() throws {
        try TransportTests.withServer(TransportConfiguration(timeoutSeconds: 1)) { port, server in
            let connection = try RawConnection(port: port)
            let started = Date()
            var closedAfter: TimeInterval?
            // One empty line every quarter second, for up to 6 s.
            while closedAfter == nil, Date().timeIntervalSince(started) < 6 {
                if (try? connection.send("\r\n")) == nil || server.openConnectionCount() == 0 {
                    closedAfter = Date().timeIntervalSince(started)
                } else {
                    Thread.sleep(forTimeInterval: 0.25)
                }
            }
            #expect(closedAfter.map { $0 < 3 } == true, "still open after \(Date().timeIntervalSince(started)) s")
        }
    }

    /// An upgraded stream whose client stops reading, then asks to close, has its unsent output
    /// dropped at the timeout like an answer's.
    @Test func anUpgradedStreamClosingWithUnsentOutputEndsAtTheTimeout() throws {
        try TransportTests.withServer(TransportConfiguration(timeoutSeconds: 1), respond: Self.respond) { port, server in
            let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
            try connection.send("GET /upgrade HTTP/1.1\r\nHost: t\r\nConnection: upgrade\r\nUpgrade: test\r\n\r\n")
            #expect(TransportFaultTests.eventually { server.openConnectionCount() == 1 })
            let started = Date()
            try connection.send("close")
            #expect(TransportFaultTests.eventually(within: 15) { server.openConnectionCount() == 0 })
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }
}

/// Writes 3 MB (under the default unsent-output limit) as soon as the stream starts, and closes
/// the stream when the client sends anything.
private final class FloodingHandler: ByteStreamHandler {
    private var stream: (any ByteStream)?

    func started(on stream: any ByteStream) {
        self.stream = stream
        stream.write([UInt8](repeating: UInt8(ascii: "f"), count: 3_000_000))
    }

    func received(_ bytes: [UInt8]) { stream?.close() }
    func serverStopping() { stream?.close() }
    func streamEnded() { stream = nil }
}
