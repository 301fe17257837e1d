import CLibevent
import Logging
import MockStackCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPConnection {
    /// Sends the 101 and hands the connection to the upgrade's handler (``Delivery/upgrade(_:)``).
    /// Any other status is answered as usual, without an upgrade; an HTTP/1.0 request, which
    /// cannot switch protocols (RFC 9110 §7.8), is refused with a 400 and the connection closes.
    func beginUpgrade(_ response: HTTPResponse, _ upgrade: ConnectionUpgrade, _ exchange: Exchange) {
        guard response.status == 101 else { return sendWhole(response, exchange: exchange) }
        guard exchange.version == .http11 else {
            state.closeAfterAnswer()
            let body = worker.errorBody(400, "Switching protocols needs HTTP/1.1")
            return sendWhole(.json(400, bytes: body, headers: ["Connection": "close"]), exchange: exchange)
        }
        worker.date.refresh()
        let head = response.head
        let reply = WholeReply(head: head.bytes, date: head.hasDate ? [] : worker.date.line, connection: [], body: [])
        finish(exchange, status: 101, bytes: 0)
        openStream(reply, chunked: false, handoff: upgrade.handoff)
    }

    /// Queues `opening`, the reply that ends HTTP on the connection (a `101`, a streamed body's
    /// head), and hands the connection to the handler `handoff` makes: from then on it is a
    /// byte stream (``UpgradedStream``), each serve of whose output is one chunk when `chunked`.
    func openStream(_ opening: WholeReply, chunked: Bool, handoff: ByteStreamHandoff) {
        guard queue(opening) else { return }
        switchToStream()
        let stream = UpgradedStream(
            connection: self, chunked: chunked, unsentOutputLimit: handoff.unsentOutputLimit,
            handler: handoff.makeHandler())
        upgradedStream = stream
        stream.handler.started(on: stream)
        // A client may send its first bytes right behind the request, in the same packet.
        upgradedInputArrived()
    }

    /// Hands what the client sent to the handler, in pieces of at most 64 KiB.
    func upgradedInputArrived() {
        guard let stream = upgradedStream, let input = bufferevent_get_input(bufferevent) else { return }
        while state.isUpgraded {
            let available = evbuffer_get_length(input)
            guard available > 0 else { return }
            var piece = [UInt8](repeating: 0, count: min(available, 64 * 1024))
            let taken = piece.withUnsafeMutableBytes { Int(evbuffer_remove(input, $0.baseAddress, $0.count)) }
            guard taken > 0 else { return }
            if taken < piece.count { piece.removeLast(piece.count - taken) }
            stream.handler.received(piece)
        }
    }

    /// Sends a stream's bytes: straight to the socket, as much as it takes now, when nothing
    /// waits in the output before them (and the connection is not TLS, whose bytes are
    /// OpenSSL's to write); the rest is left to the bufferevent.
    /// - Returns: how much is now unsent.
    func sendUpgraded(_ bytes: [UInt8]) -> Int {
        guard let output = bufferevent_get_output(bufferevent) else { return 0 }
        var written = 0
        if secure == nil, evbuffer_get_length(output) == 0 {
            // A failed write (the client gone) leaves the bytes to the bufferevent, which then
            // hears the error and closes.
            if case .success(let count) = bytes.withUnsafeBytes({ SystemCalls.write(socket, $0) }) { written = count }
        }
        guard written < bytes.count else {
            handed(bytes.count)
            return 0
        }
        let status = bytes.withUnsafeBytes {
            evbuffer_add(output, $0.baseAddress.map { $0 + written }, $0.count - written)
        }
        // Bytes that could not be queued leave a gap in the stream: it is dropped, as one over its limit.
        guard worker.logger.succeeded(status, "evbuffer_add", "dropping the upgraded connection") else {
            return Int.max
        }
        handed(bytes.count)
        return evbuffer_get_length(output)
    }

    /// Drops a stream whose client does not take its output (a reset: what the kernel still
    /// holds for it is dropped too).
    func dropUpgraded(unsent: Int) {
        guard state.isUpgraded else { return }
        worker.logger.info("resetting an upgraded connection whose client does not read (\(unsent) bytes unsent)")
        reset()
    }

    /// Closes a stream once its output has gone out.
    func endUpgraded() {
        guard state.isUpgraded else { return }
        endAfterOutput()
    }
}

/// The ``ByteStream`` of one upgraded connection, or of a streamed body's. Writes, from any
/// thread, gather in an outbox; the connection's loop serves the stream soon after
/// (``StreamServiceQueue``): the outbox goes to the socket in one write (one chunk, for a chunked
/// body), then a drop, a close or a cut asked for is carried out. Writes made while a loop
/// callback runs (every stream a service event reaches, a message and its answer) thus leave
/// together once it returns, and nothing calls the handler back before a method returns.
/// Closing a chunked body sends its last chunk first; cutting it does not
/// (docs/transport.md#streamed-bodies).
///
/// The connection and its loop are reached only while the stream is open: it is closed on the
/// loop, under the lock, before the connection (and, at the end, the loop) goes away.
final class UpgradedStream: ByteStream, @unchecked Sendable {
    let handler: any ByteStreamHandler
    /// Read and changed only on the loop thread.
    private unowned(unsafe) var connection: HTTPConnection?
    private unowned(unsafe) let worker: Worker
    /// Whether the stream is an HTTP/1.1 streamed body, in chunked coding.
    private let chunked: Bool
    private let unsentOutputLimit: Int
    private let shared = Mutex(Shared())

    /// How the stream was asked to end.
    private enum Ending {
        /// After its output, a chunked body's last chunk included.
        case close
        /// After its output, without ending a chunked body.
        case cut
    }

    private struct Shared {
        var open = true
        /// Bytes written and not yet handed to the connection, in order.
        var outbox: [UInt8] = []
        /// Whether the stream waits in its loop's ``StreamServiceQueue``.
        var queued = false
        var ending: Ending?
        /// Whether the handler asked for ``ByteStreamHandler/outputWanted()`` and has not yet
        /// been called.
        var wantsOutput = false
        /// Set once the connection is to be dropped when served (its unsent output passed the
        /// limit, or ``drop()`` was called): the bytes unsent then.
        var overLimit: Int?

        /// Whether the handler may still be given output: open, and neither ending nor dropped.
        var takesOutput: Bool { open && ending == nil && overLimit == nil }
    }

    init(connection: HTTPConnection, chunked: Bool, unsentOutputLimit: Int, handler: any ByteStreamHandler) {
        self.connection = connection
        worker = connection.worker
        self.chunked = chunked
        self.unsentOutputLimit = unsentOutputLimit
        self.handler = handler
    }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        shared.withLock { shared in
            guard shared.open, shared.ending == nil, shared.overLimit == nil else { return }
            if shared.outbox.isEmpty {
                shared.outbox = bytes
            } else {
                shared.outbox += bytes
            }
            if shared.outbox.count > unsentOutputLimit {
                shared.overLimit = shared.outbox.count
                shared.outbox = []
            }
            queue(&shared)
        }
    }

    func close() { end(.close) }

    func cut() { end(.cut) }

    func requestOutput() {
        shared.withLock { shared in
            guard shared.takesOutput, !shared.wantsOutput else { return }
            shared.wantsOutput = true
            queue(&shared)
        }
    }

    func drop() {
        shared.withLock { shared in
            guard shared.open, shared.overLimit == nil else { return }
            shared.overLimit = shared.outbox.count
            shared.outbox = []
            queue(&shared)
        }
    }

    private func end(_ ending: Ending) {
        shared.withLock { shared in
            guard shared.open, shared.ending == nil else { return }
            shared.ending = ending
            queue(&shared)
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

    private func queue(_ shared: inout Shared) {
        guard !shared.queued else { return }
        shared.queued = true
        worker.streamService.add(self)
    }

    /// On the loop (``StreamServiceQueue``): the outbox goes out, then a drop, a close or a cut
    /// asked for runs. A stream asked to end is served once more at most (nothing queues it
    /// after that), so a chunked body's last chunk goes out once.
    /// - Returns: the bytes handed to the connection.
    @discardableResult
    func serve() -> Int {
        // A handler that asked writes first, when the connection has sent what it had: its
        // piece then goes out in this serve. (The stream is still queued, so its writes do not
        // queue it again.)
        if shared.withLock({ shared in
            guard shared.wantsOutput, shared.takesOutput, connection?.unsentOutput == 0 else { return false }
            shared.wantsOutput = false
            return true
        }) {
            handler.outputWanted()
        }
        let (open, overLimit, ending, handed) = shared.withLock { shared in
            shared.queued = false
            var handed = 0
            if shared.open, shared.overLimit == nil, let connection {
                let output = framed(shared.outbox, ending: shared.ending)
                shared.outbox = []
                handed = output.count
                if !output.isEmpty {
                    let unsent = connection.sendUpgraded(output)
                    if unsent > unsentOutputLimit { shared.overLimit = unsent }
                }
                // Asked again, and all is sent: on the loop's next pass (the queue's next turn).
                // Otherwise the connection's drain asks (``outputDrained()``).
                if shared.wantsOutput, connection.unsentOutput == 0 { queue(&shared) }
            }
            return (shared.open, shared.overLimit, shared.ending, handed)
        }
        guard open, let connection else { return handed }
        if let overLimit {
            connection.dropUpgraded(unsent: overLimit)
        } else if ending != nil {
            connection.endUpgraded()
        }
        return handed
    }

    /// The connection has sent all its output (on the loop): a handler waiting to write is
    /// served next.
    func outputDrained() {
        shared.withLock { shared in
            if shared.wantsOutput, shared.takesOutput { queue(&shared) }
        }
    }

    /// What one serve sends: the outbox as it is, or, for a chunked body, as one chunk, with the
    /// last chunk behind it when the body is closed.
    private func framed(_ outbox: [UInt8], ending: Ending?) -> [UInt8] {
        guard chunked else { return outbox }
        let chunk = ChunkedCoding.chunk(outbox)
        return ending == .close ? chunk + ChunkedCoding.lastChunk : chunk
    }

    /// The server is stopping gracefully (on the loop).
    func serverStopping() { handler.serverStopping() }

    /// The connection has closed (on the loop): the stream closes, and the handler hears it last.
    func connectionClosed() {
        let wasOpen = shared.withLock { shared in
            defer {
                shared.open = false
                shared.outbox = []
            }
            return shared.open
        }
        connection = nil
        if wasOpen { handler.streamEnded() }
    }
}
