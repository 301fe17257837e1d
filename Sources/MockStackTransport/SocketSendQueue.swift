#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel still holds of the bytes written to a socket: sent but not acknowledged by
/// the peer, or not sent yet. A client that stops reading stops acknowledging once its own
/// receive buffer is full, so this stops shrinking: it is how the loop tells a slow reader from
/// one that has stopped (``ConnectionWatch``), however much the kernel buffered.
enum SocketSendQueue {
    /// The bytes written to `socket` that its peer has not acknowledged, or nil when the system
    /// cannot say.
    static func unacknowledgedBytes(_ socket: Int32) -> Int? {
        var count: Int32 = 0
        #if os(Linux)
        // SIOCOUTQ, which Linux defines as TIOCOUTQ: unsent plus unacknowledged bytes.
        guard ioctl(socket, UInt(TIOCOUTQ), &count) == 0 else { return nil }
        #else
        // Darwin keeps unacknowledged bytes in the send buffer, which SO_NWRITE counts.
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_NWRITE, &count, &size) == 0 else { return nil }
        #endif
        return Int(count)
    }
}
