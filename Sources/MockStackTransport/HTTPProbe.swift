import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 GET, for `mockstack health` (a Docker HEALTHCHECK must not need
/// curl in the image).
public enum HTTPProbe {
    /// The status code of `GET path` on `host:port`, or a description of why there was none.
    public static func get(host: String, port: Int, path: String, timeoutMilliseconds: Int = 2_000) -> Result<Int, TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            return .failure(TransportError("cannot resolve \(host): \(String(cString: gai_strerror(status)))", call: "getaddrinfo"))
        }
        defer { freeaddrinfo(results) }

        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return .failure(TransportError("socket failed: \(String(cString: strerror(errno)))", call: "socket", errno: errno)) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        // A probe without its timeouts could wait for ever on a server that accepts and says nothing.
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            return .failure(.failed("setsockopt(SO_RCVTIMEO)"))
        }
        guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            return .failure(.failed("setsockopt(SO_SNDTIMEO)"))
        }
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .failure(TransportError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))", call: "connect", errno: errno))
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            return .failure(TransportError("cannot send to \(host):\(port): \(String(cString: strerror(errno)))", call: "send", errno: errno))
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !response.contains(0x0A) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let statusLine = String(decoding: response.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
            return .failure(TransportError("no HTTP answer from \(host):\(port)"))
        }
        return .success(code)
    }
}
