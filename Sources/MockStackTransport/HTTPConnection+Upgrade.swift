import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MockStackCore
import Synchronization

extension HTTPConnection {
    /// Sends the 101 and hands the connection to the upgrade's handler (``Delivery/upgrade(_:)``).
    /// Any other status is answered as usual, without an upgrade; an HTTP/1.0 request, which
    /// cannot switch protocols (RFC 9110 §7.8), is refused with a 400 and the connection closes.
    func beginUpgrade(_ response: HTTPResponse, _ upgrade: ConnectionUpgrade, _ exchange: Exchange) {
        guard response.status == 101 else { return sendWhole(response, exchange: exchange) }
        guard exchange.version == .http11 else {
            closesAfterAnswer = true
            let body = worker.errorBody(400, "Switching protocols needs HTTP/1.1")
            return sendWhole(.json(400, bytes: body, headers: ["Connection": "close"]), exchange: exchange)
        }
        worker.date.refresh()
        let head = response.head
        let queued = WholeReply(head: head.bytes, date: head.hasDate ? [] : worker.date.line, connection: [], body: [])
            .append(to: bufferevent_get_output(bufferevent), after: 0)
        guard worker.logger.succeeded(queued, "evbuffer_add", "closing the connection instead of upgrading it") else {
            finish(exchange, status: 101, bytes: 0)
            return close()
        }
        finish(exchange, status: 101, bytes: 0)
        switchToStream()
        let stream = UpgradedStream(connection: self, unsentOutputLimit: upgrade.unsentOutputLimit, handler: upgrade.makeHandler())
        upgradedStream = stream
        stream.handler.started(on: stream)
        // A client may send its first bytes right behind the request, in the same packet.
        upgradedInputArrived()
    }

    /// Hands what the client sent to the handler, in pieces of at most 64 KiB.
    func upgradedInputArrived() {
        guard let stream = upgradedStream, let input = bufferevent_get_input(bufferevent) else { return }
        while state == .upgraded {
            let available = evbuffer_get_length(input)
            guard available > 0 else { return }
            var piece = [UInt8](repeating: 0, count: min(available, 64 * 1024))
            let taken = piece.withUnsafeMutableBytes { Int(evbuffer_remove(input, $0.baseAddress, $0.count)) }
            guard taken > 0 else { return }
            if taken < piece.count { piece.removeLast(piece.count - taken) }
            stream.handler.received(piece)
        }
    }

    /// Adds a stream's bytes to the output. - Returns: how much is now unsent.
    func appendUpgraded(_ bytes: [UInt8]) -> Int {
        guard let output = bufferevent_get_output(bufferevent) else { return 0 }
        let status = bytes.withUnsafeBytes { evbuffer_add(output, $0.baseAddress, $0.count) }
        // Bytes that could not be queued leave a gap in the stream: it is dropped, as one over its limit.
        guard worker.logger.succeeded(status, "evbuffer_add", "dropping the upgraded connection") else { return Int.max }
        return evbuffer_get_length(output)
    }

    /// Drops a stream whose client does not take its output (a reset: what the kernel still
    /// holds for it is dropped too).
    func dropUpgraded(unsent: Int) {
        guard state == .upgraded else { return }
        worker.logger.info("resetting an upgraded connection whose client does not read (\(unsent) bytes unsent)")
        reset()
    }

    /// Closes a stream once its output has gone out.
    func endUpgraded() {
        guard state == .upgraded else { return }
        endAfterOutput()
    }
}

/// The ``ByteStream`` of one upgraded connection. Calls from other threads queue their bytes in
/// an outbox, emptied on the connection's loop by a hop (``Worker/runOnLoop(after:_:)``); calls
/// on the loop empty it at once. Closing and dropping always take a hop, so that no method
/// calls the handler back before it returns.
///
/// The connection and its loop are reached only while the stream is open: it is closed on the
/// loop, under the lock, before the connection (and, at the end, the loop) goes away.
final class UpgradedStream: ByteStream, @unchecked Sendable {
    let handler: any ByteStreamHandler
    /// Read and changed only on the loop thread.
    private unowned(unsafe) var connection: HTTPConnection?
    private unowned(unsafe) let worker: Worker
    private let loopThread = pthread_self()
    private let unsentOutputLimit: Int
    private let shared = Mutex(Shared())

    private struct Shared {
        var open = true
        var outbox: [[UInt8]] = []
        var outboxBytes = 0
        var hopScheduled = false
        var closeRequested = false
        /// Unsent bytes past the limit, when that was found; the connection is dropped on the next hop.
        var overLimit: Int?
    }

    init(connection: HTTPConnection, unsentOutputLimit: Int, handler: any ByteStreamHandler) {
        self.connection = connection
        worker = connection.worker
        self.unsentOutputLimit = unsentOutputLimit
        self.handler = handler
    }

    private var onLoop: Bool { pthread_equal(pthread_self(), loopThread) != 0 }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let onLoop = onLoop
        shared.withLock { shared in
            guard shared.open, !shared.closeRequested, shared.overLimit == nil else { return }
            shared.outbox.append(bytes)
            shared.outboxBytes += bytes.count
            if onLoop {
                flush(&shared)
            } else if shared.outboxBytes > unsentOutputLimit {
                shared.overLimit = shared.outboxBytes
                shared.outbox.removeAll()
                scheduleHop(&shared)
            } else {
                scheduleHop(&shared)
            }
        }
    }

    func close() {
        shared.withLock { shared in
            guard shared.open, !shared.closeRequested else { return }
            shared.closeRequested = true
            scheduleHop(&shared)
        }
    }

    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        shared.withLock { shared in
            guard shared.open else { return }
            worker.runOnLoop(after: max(0, milliseconds)) { _ in
                if self.shared.withLock({ $0.open }) { action() }
            }
        }
    }

    /// Moves the outbox to the connection's output (on the loop, under the lock), noting when
    /// the unsent bytes pass the limit.
    private func flush(_ shared: inout Shared) {
        guard let connection, !shared.outbox.isEmpty else { return }
        var unsent = 0
        for bytes in shared.outbox { unsent = connection.appendUpgraded(bytes) }
        shared.outbox.removeAll(keepingCapacity: true)
        shared.outboxBytes = 0
        if unsent > unsentOutputLimit {
            shared.overLimit = unsent
            scheduleHop(&shared)
        }
    }

    private func scheduleHop(_ shared: inout Shared) {
        guard !shared.hopScheduled else { return }
        shared.hopScheduled = true
        worker.runOnLoop { _ in self.hop() }
    }

    /// On the loop: the outbox goes out, then a drop or a close asked for runs.
    private func hop() {
        let (open, overLimit, closeRequested) = shared.withLock { shared in
            shared.hopScheduled = false
            if shared.open, shared.overLimit == nil { flush(&shared) }
            return (shared.open, shared.overLimit, shared.closeRequested)
        }
        guard open, let connection else { return }
        if let overLimit {
            connection.dropUpgraded(unsent: overLimit)
        } else if closeRequested {
            connection.endUpgraded()
        }
    }

    /// The server is stopping gracefully (on the loop).
    func serverStopping() { handler.serverStopping() }

    /// The connection has closed (on the loop): the stream closes, and the handler hears it last.
    func connectionClosed() {
        let wasOpen = shared.withLock { shared in
            defer {
                shared.open = false
                shared.outbox.removeAll()
            }
            return shared.open
        }
        connection = nil
        if wasOpen { handler.streamEnded() }
    }
}
