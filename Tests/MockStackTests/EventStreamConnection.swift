import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A Server Events stream read over a raw loopback socket, so a test sees the exact bytes: the
/// head, each chunk as the server framed it, and how the connection ended. Every read waits at
/// most the socket's timeout, so a stall fails instead of hanging.
final class EventStreamConnection: @unchecked Sendable {
    let connection: RawConnection
    /// Every byte received so far.
    private(set) var received: [UInt8] = []
    /// How the connection ended, once it has.
    private(set) var end: RawConnection.StreamEnd?

    /// Opens `GET path` (`/test/event-stream?channels=home`). A read waits at most 15 s: longer
    /// than a loaded machine takes, short enough to fail within a test's time limit.
    init(port: Int, path: String, headers: String = "") throws {
        connection = try RawConnection(port: port, timeoutSeconds: 15)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)\r\n")
    }

    /// The head, once it has come, as its text up to the blank line.
    var head: String? {
        RawResponse.find([13, 10, 13, 10], in: received, from: 0).map {
            String(decoding: received[..<$0], as: UTF8.self)
        }
    }

    /// The body's chunks as framed, what has come of the next one, and whether the last (empty)
    /// chunk came.
    var chunks: (complete: [String], partial: String, last: Bool) {
        guard let headEnd = RawResponse.find([13, 10, 13, 10], in: received, from: 0) else { return ([], "", false) }
        var offset = headEnd + 4
        var chunks: [String] = []
        while let lineEnd = RawResponse.find([13, 10], in: received, from: offset),
              let size = Int(String(decoding: received[offset..<lineEnd], as: UTF8.self), radix: 16) {
            let start = lineEnd + 2
            guard received.count >= start + size + 2 else {
                return (chunks, String(decoding: received[min(start, received.count)...], as: UTF8.self), false)
            }
            if size == 0 { return (chunks, "", true) }
            chunks.append(String(decoding: received[start..<start + size], as: UTF8.self))
            offset = start + size + 2
        }
        return (chunks, "", false)
    }

    /// The body so far as text, framing removed, the incomplete chunk's part included.
    var bodyText: String {
        let chunks = chunks
        return chunks.complete.joined() + chunks.partial
    }

    /// The complete `data:` lines so far, in order.
    var frames: [String] {
        bodyText.components(separatedBy: "\n\n").dropLast().compactMap { frame in
            frame.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    /// Reads until `done` holds or the connection ends or a read times out.
    /// - Returns: whether `done` holds.
    @discardableResult
    func read(until done: (EventStreamConnection) -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(self) {
            guard end == nil else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else {
                end = count == 0 ? .closed : (errno == ECONNRESET ? .reset : .timedOut)
            }
        }
        return true
    }

    /// Reads until at least `count` frames have come.
    /// - Returns: the frames.
    func frames(_ count: Int) -> [String] {
        read { $0.frames.count >= count }
        return frames
    }

    /// Reads until the connection ends.
    /// - Returns: how it ended.
    func readToEnd() -> RawConnection.StreamEnd? {
        read { $0.end != nil }
        return end
    }

    /// The subscription's id, from `cmd.onConnect`.
    var subscriptionID: String? { frames.first.flatMap { Self.field("id", in: $0) } }

    /// The value of the first `"key":"…"` in a frame's JSON (whose string values hold no quotes).
    static func field(_ key: String, in frame: String) -> String? {
        guard let range = frame.range(of: "\"\(key)\":\"") else { return nil }
        return String(frame[range.upperBound...].prefix { $0 != "\"" })
    }
}
