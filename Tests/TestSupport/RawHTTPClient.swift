public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A deliberately dumb HTTP/1.1 client over a raw loopback socket, so tests can send exactly
/// the bytes they mean (malformed lines, huge headers, pipelined requests) and see exactly
/// what came back.
public final class RawConnection {
    public let fd: Int32

    /// - Parameter receiveBufferBytes: a small receive buffer (set before connecting, so the
    ///   window the server sees is small too), for a client that stops reading early.
    public init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 5, receiveBufferBytes: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError("socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let receiveBufferBytes {
            var size = Int32(receiveBufferBytes)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: every stored property is set, so a throw runs deinit, which closes
        // the socket. A second close would close whatever descriptor took the number meanwhile,
        // another test's listening socket among them.
        guard status == 0 else { throw RawHTTPError("connect to \(port) failed: errno \(errno)") }
    }

    deinit { if fd >= 0 { close(fd) } }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawHTTPError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends `bytes` over and over until `total` bytes have gone or a send waits longer than
    /// `stallSeconds` (the peer stopped reading and every buffer between is full).
    /// - Returns: the bytes the peer's side accepted.
    public func sendRepeatedly(_ bytes: [UInt8], upTo total: Int, stallSeconds: Int) -> Int {
        var timeout = timeval(tv_sec: stallSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var accepted = 0
        while accepted < total {
            // A partial send goes on from where it stopped, so the peer reads whole copies.
            let offset = accepted % bytes.count
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { break }
            accepted += sent
        }
        return accepted
    }

    /// Reads until the peer closes, a read fails, or the timeout passes.
    /// - Returns: the bytes, and how the stream ended.
    public func readToEnd() -> (bytes: [UInt8], end: StreamEnd) {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { all += buffer[0..<count]; continue }
            if count == 0 { return (all, .closed) }
            return (all, errno == ECONNRESET ? .reset : .timedOut)
        }
    }

    /// Reads exactly one response (head plus Content-Length or chunked body; the head alone
    /// with `headOnly`, for the answer to HEAD).
    public func readResponse(headOnly: Bool = false) throws -> RawResponse {
        guard let response = try readResponseUnlessClosed(headOnly: headOnly) else { throw RawHTTPError("connection closed after 0 bytes") }
        return response
    }

    /// One response, or nil when the peer closed the connection before sending a byte.
    public func readResponseUnlessClosed(headOnly: Bool = false) throws -> RawResponse? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let response = RawResponse.parse(data, headOnly: headOnly) { return response }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0, data.isEmpty { return nil }
            guard count > 0 else { throw RawHTTPError(count == 0 ? "connection closed after \(data.count) bytes" : "read failed: errno \(errno)") }
            data += buffer[0..<count]
        }
    }

    public enum StreamEnd: Equatable, Sendable { case closed, reset, timedOut }
}

/// One parsed response.
public struct RawResponse: Equatable, Sendable {
    public var statusLine: String
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Bytes of the head plus body, to slice pipelined streams.
    public var length: Int
    public var wasChunked: Bool

    public static func == (a: RawResponse, b: RawResponse) -> Bool { a.statusLine == b.statusLine && a.body == b.body }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Parses a complete response from the start of `data`, or `nil` if more is needed.
    /// (Bodies of HEAD answers are not known here; tests that send HEAD use `parseHead`.)
    public static func parse(_ data: [UInt8], headOnly: Bool = false) -> RawResponse? {
        guard let headEnd = find([13, 10, 13, 10], in: data, from: 0) else { return nil }
        let head = String(decoding: data[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0]
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(statusLine: statusLine, status: status, headers: headers, body: [], length: headEnd + 4, wasChunked: false)
        if headOnly || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var offset = headEnd + 4
            while true {
                guard let lineEnd = find([13, 10], in: data, from: offset),
                      let size = Int(String(decoding: data[offset..<lineEnd], as: UTF8.self), radix: 16) else { return nil }
                let start = lineEnd + 2
                guard data.count >= start + size + 2 else { return nil }
                response.body += data[start..<start + size]
                offset = start + size + 2
                if size == 0 { break }
            }
            response.length = offset
            response.wasChunked = true
            return response
        }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        guard data.count >= headEnd + 4 + length else { return nil }
        response.body = Array(data[(headEnd + 4)..<(headEnd + 4 + length)])
        response.length = headEnd + 4 + length
        return response
    }

    /// Where `needle` first occurs in `data` at or after `from`.
    public static func find(_ needle: [UInt8], in data: [UInt8], from: Int) -> Int? {
        guard data.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= data.count {
            if data[i] == needle[0], Array(data[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Sends one request on a fresh connection and reads one response.
public func rawExchange(port: Int, _ request: String) throws -> RawResponse {
    let connection = try RawConnection(port: port)
    try connection.send(request)
    return try connection.readResponse()
}

/// The package checkout's root, from this file's path.
public let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh temporary folder, removed by the caller.
public func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mockstack-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `files` (relative path → contents) under `root`.
public func writeFiles(_ files: [String: String], under root: URL) throws {
    for (path, contents) in files {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }
}
