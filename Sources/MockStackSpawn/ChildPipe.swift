import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's end of a pipe to a child: read from its output, or write to its input.
/// Closed when released, or by ``close()``.
public final class ChildPipe: @unchecked Sendable {
    // @unchecked: `descriptor` changes only in close(), under `lock`. Reads keep to one thread
    // at a time (a reader's buffer is its own); closing while another thread reads is the
    // caller's mistake.
    private let lock = NSLock()
    private var descriptor: Int32
    /// Bytes read past a line ``readLine(timeout:)`` returned, handed out first by every read.
    private var carried: [UInt8] = []

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Closes this end: for an input pipe, the child reads its end.
    public func close() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }

    /// The next bytes as they arrive, at most `maximum`; empty at the end of the stream.
    public func read(maximum: Int = 65_536) -> [UInt8] {
        if let held = takeCarried() { return held }
        var buffer = [UInt8](repeating: 0, count: maximum)
        let fd = lock.withLock { descriptor }
        guard fd >= 0 else { return [] }
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno != EINTR { return [] }
        }
    }

    /// Everything up to the end of the stream.
    public func readToEnd() -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = read()
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// The bytes up to the next newline, without it: the ready line a server prints once it
    /// listens. Returns what came before the end if the stream ends first, and nil if
    /// `timeout` passes first (the line may still come: a later call goes on reading).
    /// Bytes after the newline are kept for the next read.
    public func readLine(timeout: Duration? = nil) -> LineRead {
        var line = takeCarried() ?? []
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let newline = line.firstIndex(of: 0x0A) {
                carry(Array(line[(newline + 1)...]))
                return .line(String(decoding: line[..<newline], as: UTF8.self))
            }
            if let deadline, !waitForInput(until: deadline) {
                carry(line)
                return .timedOut
            }
            let chunk = read()
            if chunk.isEmpty { return .ended(String(decoding: line, as: UTF8.self)) }
            line += chunk
        }
    }

    /// Writes all of `bytes`; false if the child's end is gone (it exited, or closed its input).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let fd = lock.withLock { descriptor }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Whether bytes (or the end) can be read before `deadline`.
    private func waitForInput(until deadline: ContinuousClock.Instant) -> Bool {
        let fd = lock.withLock { descriptor }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = Int32(
                clamping: max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 && left <= .zero { return false }
            if ready < 0 && errno != EINTR { return true }  // let the read report it
        }
    }

    private func takeCarried() -> [UInt8]? {
        lock.withLock {
            guard !carried.isEmpty else { return nil }
            defer { carried = [] }
            return carried
        }
    }

    private func carry(_ bytes: [UInt8]) {
        lock.withLock { carried = bytes + carried }
    }
}

/// What ``ChildPipe/readLine(timeout:)`` read.
public enum LineRead: Sendable, Equatable {
    /// A whole line, without its newline.
    case line(String)
    /// The stream ended first, after these bytes (empty if none).
    case ended(String)
    /// The time ran out first.
    case timedOut

    /// The line, or nil.
    public var line: String? {
        if case .line(let line) = self { return line }
        return nil
    }
}
