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
    public static func get(
        host: String, port: Int, path: String, timeoutMilliseconds: Int = 2_000
    ) -> Result<Int, TransportError> {
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
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
                .utf8)
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
        var buffer = [UInt8](repeating: 0, count: 512)
        while !response.contains(0x0A) {
            guard case .success(let count) = buffer.withUnsafeMutableBytes({ SystemCalls.receive(fd, into: $0) }),
                count > 0
            else { break }
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
