import CLibevent
import Logging
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Binds listening sockets through `evconnlistener_new_bind`, resolving the host first.
enum SocketBinding {
    /// Creates a listener on `host:port` for `base`. With `reusePort`, several loops may bind
    /// the same port and the kernel spreads connections between them.
    static func listen(
        base: OpaquePointer, host: String, port: Int, reusePort: Bool, logger: Logger
    ) throws(TransportError) -> OpaquePointer {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw TransportError(
                "cannot listen on \(host):\(port): \(String(cString: gai_strerror(status)))", call: "getaddrinfo")
        }
        defer { freeaddrinfo(results) }

        var flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC | LEV_OPT_REUSEABLE
        if reusePort { flags |= LEV_OPT_REUSEABLE_PORT }
        var lastError = SystemCallError(code: 0)
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            if let listener = evconnlistener_new_bind(
                base, nil, nil, UInt32(flags), 1024, info.pointee.ai_addr, Int32(info.pointee.ai_addrlen))
            {
                // Accepted sockets inherit TCP_NODELAY from the listener on Linux: without it,
                // a reply written in two parts waits for the client's delayed ACK (40 ms).
                logger.succeeded(
                    SystemCalls.setOption(evconnlistener_get_fd(listener), Int32(IPPROTO_TCP), TCP_NODELAY, Int32(1)),
                    "setsockopt(TCP_NODELAY)",
                    "answers written in two parts may wait 40 ms for the client's acknowledgement")
                return listener
            }
            lastError = .current
            candidate = info.pointee.ai_next
        }
        throw TransportError(
            "cannot listen on \(host):\(port): \(lastError.reason)", call: "evconnlistener_new_bind",
            errno: lastError.code)
    }

    /// The port a bound listener actually got (for port 0).
    static func boundPort(of listener: OpaquePointer) -> Int {
        let fd = evconnlistener_get_fd(listener)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return 0 }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return 0
        }
    }
}
