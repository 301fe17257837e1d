#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call's failure: the `errno` it left.
struct SystemCallError: Error, Equatable {
    let code: Int32

    /// The calling thread's `errno` now: read it right after the call that failed.
    static var current: SystemCallError {
        #if os(Linux)
        SystemCallError(code: Glibc.errno)
        #else
        SystemCallError(code: Darwin.errno)
        #endif
    }

    /// Nothing is wrong: the call would have blocked, or a signal interrupted it. Try again
    /// when the descriptor is ready.
    var isTransient: Bool { code == EAGAIN || code == EWOULDBLOCK || code == EINTR }

    /// The system's words for it ("Connection reset by peer").
    var reason: String { String(cString: strerror(code)) }
}

/// Every raw system call the transport makes on a socket or descriptor, in one place: each
/// returns its result or the ``SystemCallError`` behind `-1`, so no caller reads `errno`
/// itself, and the Linux and Darwin spellings stand side by side. libevent's calls are checked
/// by `Logger.succeeded` (CheckedCall.swift) instead; they report failure their own way.
enum SystemCalls {
    /// Reads up to `count` bytes into `buffer`: how many (0 at the end of input).
    @inline(__always)
    static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int
    )
        -> Result<Int, SystemCallError>
    {
        #if os(Linux)
        counted(Glibc.read(descriptor, buffer, count))
        #else
        counted(Darwin.read(descriptor, buffer, count))
        #endif
    }

    /// Writes as much of `bytes` as the descriptor takes now: how many.
    @inline(__always)
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemCallError> {
        #if os(Linux)
        counted(Glibc.write(descriptor, bytes.baseAddress, bytes.count))
        #else
        counted(Darwin.write(descriptor, bytes.baseAddress, bytes.count))
        #endif
    }

    /// Writes as much of the pieces `vectors` point to, in order, as the descriptor takes now.
    @inline(__always)
    static func write(
        _ descriptor: Int32, gathering vectors: UnsafeBufferPointer<iovec>
    )
        -> Result<Int, SystemCallError>
    {
        #if os(Linux)
        counted(Glibc.writev(descriptor, vectors.baseAddress, Int32(vectors.count)))
        #else
        counted(Darwin.writev(descriptor, vectors.baseAddress, Int32(vectors.count)))
        #endif
    }

    /// Receives up to `buffer.count` bytes from a socket (`flags` as `recv` takes them).
    static func receive(
        _ socket: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0
    )
        -> Result<Int, SystemCallError>
    {
        #if os(Linux)
        counted(Glibc.recv(socket, buffer.baseAddress, buffer.count, flags))
        #else
        counted(Darwin.recv(socket, buffer.baseAddress, buffer.count, flags))
        #endif
    }

    /// Sends `bytes` on a socket without raising SIGPIPE when the peer has gone: Linux says so
    /// with each send; Darwin has no such flag, and its sockets from ``socket(family:type:protocol:)``
    /// carry `SO_NOSIGPIPE` instead.
    static func send(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemCallError> {
        #if os(Linux)
        counted(Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)))
        #else
        counted(Darwin.send(socket, bytes.baseAddress, bytes.count, 0))
        #endif
    }

    /// Closes a descriptor. Not retried on `EINTR`: on Linux the descriptor is gone even then.
    @discardableResult
    static func close(_ descriptor: Int32) -> Result<Void, SystemCallError> {
        #if os(Linux)
        checked(Glibc.close(descriptor))
        #else
        checked(Darwin.close(descriptor))
        #endif
    }

    /// Shuts a socket's sending side: the peer reads the end after what was sent.
    static func shutdownWrites(_ socket: Int32) -> Result<Void, SystemCallError> {
        #if os(Linux)
        checked(Glibc.shutdown(socket, Int32(SHUT_WR)))
        #else
        checked(Darwin.shutdown(socket, SHUT_WR))
        #endif
    }

    /// Sets a socket option to `value` (an `Int32`, a `timeval`, a `linger`).
    static func setOption<Value: BitwiseCopyable>(
        _ socket: Int32, _ level: Int32, _ name: Int32, _ value: Value
    )
        -> Result<Void, SystemCallError>
    {
        let size = socklen_t(MemoryLayout<Value>.size)
        #if os(Linux)
        return checked(withUnsafeBytes(of: value) { Glibc.setsockopt(socket, level, name, $0.baseAddress, size) })
        #else
        return checked(withUnsafeBytes(of: value) { Darwin.setsockopt(socket, level, name, $0.baseAddress, size) })
        #endif
    }

    /// The bytes written to a socket that the kernel still holds: not sent yet, or sent and not
    /// acknowledged by the peer. A client that stops reading stops acknowledging once its own
    /// receive buffer is full, so this stops shrinking: it is how the loop tells a slow reader
    /// from one that has stopped (``ConnectionWatch``), however much the kernel buffered.
    static func unacknowledgedBytes(_ socket: Int32) -> Result<Int, SystemCallError> {
        var count: Int32 = 0
        #if os(Linux)
        // SIOCOUTQ, which Linux defines as TIOCOUTQ: unsent plus unacknowledged bytes.
        let status = Glibc.ioctl(socket, UInt(TIOCOUTQ), &count)
        #else
        // Darwin keeps unacknowledged bytes in the send buffer, which SO_NWRITE counts.
        var size = socklen_t(MemoryLayout<Int32>.size)
        let status = Darwin.getsockopt(socket, SOL_SOCKET, SO_NWRITE, &count, &size)
        #endif
        return checked(status).map { Int(count) }
    }

    /// What kind of file a descriptor is, and the rest of `fstat`'s answer.
    static func fileStatus(_ descriptor: Int32) -> Result<stat, SystemCallError> {
        var status = stat()
        #if os(Linux)
        return checked(Glibc.fstat(descriptor, &status)).map { status }
        #else
        return checked(Darwin.fstat(descriptor, &status)).map { status }
        #endif
    }

    /// A new socket's descriptor. On Darwin it is set not to raise SIGPIPE when written to
    /// after its peer has gone (``send(_:_:)``).
    static func socket(family: Int32, type: Int32, protocol: Int32) -> Result<Int32, SystemCallError> {
        #if os(Linux)
        let descriptor = Glibc.socket(family, type, `protocol`)
        #else
        let descriptor = Darwin.socket(family, type, `protocol`)
        if descriptor >= 0, case .failure(let error) = setOption(descriptor, SOL_SOCKET, SO_NOSIGPIPE, Int32(1)) {
            close(descriptor)
            return .failure(error)
        }
        #endif
        return descriptor >= 0 ? .success(descriptor) : .failure(.current)
    }

    /// Connects a socket to `address`, waiting as long as its send timeout allows.
    static func connect(
        _ socket: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t
    )
        -> Result<Void, SystemCallError>
    {
        #if os(Linux)
        checked(Glibc.connect(socket, address, length))
        #else
        checked(Darwin.connect(socket, address, length))
        #endif
    }

    /// A count, or the error behind `-1`.
    @inline(__always)
    private static func counted(_ count: Int) -> Result<Int, SystemCallError> {
        count >= 0 ? .success(count) : .failure(.current)
    }

    /// Success for `0`, else the error behind it.
    @inline(__always)
    private static func checked(_ status: Int32) -> Result<Void, SystemCallError> {
        status == 0 ? .success(()) : .failure(.current)
    }
}
