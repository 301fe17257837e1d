import CLibevent

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 client for the CLI's talks with a running server: `mockstack
/// health` (a Docker HEALTHCHECK must not need curl in the image) and `mockstack stubs export`.
public enum HTTPProbe {
    /// An answer: its status and, for ``fetch(_:host:port:path:headers:body:timeoutMilliseconds:)``, its body.
    public struct Reply: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// The most of an answer ``fetch(_:host:port:path:headers:body:timeoutMilliseconds:)`` reads: a
    /// larger one is refused rather than held.
    public static let replyByteLimit = 64 * 1024 * 1024

    /// The status code of `GET path` on `host:port`, or a description of why there was none.
    public static func get(
        host: String, port: Int, path: String, timeoutMilliseconds: Int = 2_000
    ) -> Result<Int, TransportError> {
        exchange(
            host: host, port: port, path: path, headers: [], timeoutMilliseconds: timeoutMilliseconds, whole: false
        )
        .map(\.status)
    }

    /// `METHOD path` on `host:port` with `headers`, its whole answer read (the server closes the
    /// connection after it; a body framed by `Content-Length` is cut to it).
    /// - Parameter body: sent as JSON with the method (`POST`), when given.
    public static func fetch(
        _ method: String = "GET", host: String, port: Int, path: String, headers: [(String, String)] = [],
        body: [UInt8]? = nil, timeoutMilliseconds: Int = 10_000
    ) -> Result<Reply, TransportError> {
        exchange(
            method, host: host, port: port, path: path, headers: headers, body: body,
            timeoutMilliseconds: timeoutMilliseconds, whole: true)
    }

    private static func exchange(
        _ method: String = "GET", host: String, port: Int, path: String, headers: [(String, String)],
        body: [UInt8]? = nil, timeoutMilliseconds: Int, whole: Bool
    ) -> Result<Reply, TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            return .failure(
                TransportError("cannot resolve \(host): \(String(cString: gai_strerror(status)))", call: "getaddrinfo"))
        }
        defer { freeaddrinfo(results) }

        let fd: Int32
        switch SystemCalls.socket(
            family: first.pointee.ai_family, type: first.pointee.ai_socktype,
            protocol: first.pointee.ai_protocol)
        {
        case .success(let opened): fd = opened
        case .failure(let error):
            return .failure(TransportError("socket failed: \(error.reason)", call: "socket", errno: error.code))
        }
        defer { SystemCalls.close(fd) }
        let timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        // A probe without its timeouts could wait for ever on a server that accepts and says nothing.
        if case .failure(let error) = SystemCalls.setOption(fd, SOL_SOCKET, SO_RCVTIMEO, timeout) {
            return .failure(.failed("setsockopt(SO_RCVTIMEO)", error))
        }
        if case .failure(let error) = SystemCalls.setOption(fd, SOL_SOCKET, SO_SNDTIMEO, timeout) {
            return .failure(.failed("setsockopt(SO_SNDTIMEO)", error))
        }
        if case .failure(let error) = SystemCalls.connect(
            fd, to: first.pointee.ai_addr, length: first.pointee.ai_addrlen)
        {
            return .failure(
                TransportError("cannot connect to \(host):\(port): \(error.reason)", call: "connect", errno: error.code)
            )
        }
        let fields =
            [("Host", "\(host):\(port)"), ("Accept", "application/json")] + headers + [("Connection", "close")]
        let framing = body.map { [("Content-Type", "application/json"), ("Content-Length", String($0.count))] } ?? []
        let head =
            "\(method) \(path) HTTP/1.1\r\n" + (fields + framing).map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        let request = Array(head.utf8) + (body ?? [])
        switch request.withUnsafeBytes({ SystemCalls.send(fd, $0) }) {
        case .success(let sent) where sent == request.count: break
        case .success:
            return .failure(
                TransportError("cannot send to \(host):\(port): the request went out in part", call: "send"))
        case .failure(let error):
            return .failure(
                TransportError("cannot send to \(host):\(port): \(error.reason)", call: "send", errno: error.code))
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: whole ? 64 * 1024 : 512)
        // The status line is enough for a probe; a fetch reads until the server closes.
        while whole || !response.contains(0x0A) {
            guard case .success(let count) = buffer.withUnsafeMutableBytes({ SystemCalls.receive(fd, into: $0) }),
                count > 0
            else { break }
            response += buffer[0..<count]
            guard response.count <= replyByteLimit else {
                return .failure(
                    TransportError("the answer from \(host):\(port) is larger than \(replyByteLimit) bytes"))
            }
        }
        let statusLine = String(decoding: response.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
            return .failure(TransportError("no HTTP answer from \(host):\(port)"))
        }
        guard whole else { return .success(Reply(status: code, body: [])) }
        guard let answered = Self.body(of: response) else {
            return .failure(TransportError("an answer from \(host):\(port) that this client cannot read (chunked)"))
        }
        return .success(Reply(status: code, body: answered))
    }

    /// The body after the header block: all of it, or as much as `Content-Length` says; nil
    /// for a chunked one.
    private static func body(of response: [UInt8]) -> [UInt8]? {
        let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard let end = response.indices.dropLast(3).first(where: { response[$0..<$0 + 4].elementsEqual(separator) })
        else { return [] }
        let header = String(decoding: response[..<end], as: UTF8.self).lowercased()
        if header.contains("\r\ntransfer-encoding:") { return nil }
        var body = Array(response[(end + 4)...])
        if let line = header.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\t" }),
            length < body.count
        {
            body = Array(body[..<length])
        }
        return body
    }
}
