import CLibevent
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockStackCore

/// Watches one connection's buffers so that the error pages evhttp writes by itself come out
/// in mockstack's JSON format instead of evhttp's HTML.
///
/// evhttp 2.1 answers some requests before any callback of ours runs: a malformed request
/// line or header (400), a head over `max_headers_size` (also 400), a body over
/// `max_body_size` (413), an `Expect` other than `100-continue` (417). It offers no hook for
/// them: `evhttp_set_errorcb` first shipped in 2.2 (libevent PR #1141). So every connection's
/// bufferevent is created by us (`evhttp_set_bevcb`) with a callback on its output buffer.
/// The output callback is paused while we write one of our own replies (``whileWritingOwnReply(_:)``),
/// so bytes it sees can only be evhttp's own;
/// once such a page is complete in the buffer (nothing reaches the socket before the loop
/// turns) it is replaced by the same status in JSON. `100 Continue` passes untouched.
///
/// The input buffer's callback counts the bytes evhttp consumed since it last handed us a
/// request, which tells an oversized head (431) from a malformed one (400): evhttp reports
/// both as 400. It also keeps the request deadline: evhttp's timeout starts over with every
/// read, so a client sending a byte a second would hold its connection for ever; a request
/// must arrive whole within the timeout of its first byte (``bytesArrived()``).
final class ConnectionTap {
    unowned let worker: Worker
    /// The connection's bufferevent (evhttp frees it; we never do).
    let bufferevent: OpaquePointer
    private var inputEntry: OpaquePointer?
    private var outputEntry: OpaquePointer?
    /// Set once evhttp has told us it will call us when the connection closes.
    var closeCallbackInstalled = false
    /// Request bytes evhttp read off the input since the last request it dispatched to us.
    var consumedSinceDispatch = 0
    /// Where in the output buffer evhttp's own reply starts, while one is being written.
    private var foreignStart: Int?
    private var foreignHead: (end: Int, status: Int, version: String, contentLength: Int?)?
    private var rewriting = false
    /// The token bucket of a throttled reply, while one limits the connection's writes.
    private var writeLimit: OpaquePointer?
    /// Runs once the output buffer has been written out (a fault's bytes, before it closes).
    var whenDrained: (() -> Void)?
    /// Ends the connection when an answer is not written out in time (``armSendDeadline(seconds:)``).
    private var sendTimer: OpaquePointer?
    /// Set once our 413 has replaced evhttp's: when evhttp lets the connection go, its socket
    /// is kept and read to its end (``LingeringClose``).
    private var lingersAfterClose = false
    /// When the request now arriving sent its first byte (coarse monotonic seconds); nil
    /// between requests and while one is being answered.
    private var requestBegan: Int?
    /// From the dispatch of a request to the end of its answer: bytes arriving then belong to
    /// a pipelined request, whose time starts once it can be read.
    private var answering = false
    /// Set while an end for lateness is scheduled, so that one is scheduled at a time.
    private var endScheduled = false

    init(worker: Worker, bufferevent: OpaquePointer) {
        self.worker = worker
        self.bufferevent = bufferevent
    }

    /// Registers the buffer callbacks. The worker's `taps` table keeps `self` alive; the
    /// callbacks hold it unretained and are removed in ``detach()``.
    func attach() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        inputEntry = evbuffer_add_cb(bufferevent_get_input(bufferevent), { _, info, arg in
            guard let info, let arg else { return }
            let tap = Unmanaged<ConnectionTap>.fromOpaque(arg).takeUnretainedValue()
            tap.consumedSinceDispatch += info.pointee.n_deleted
            if info.pointee.n_added > 0 { tap.bytesArrived() }
        }, me)
        outputEntry = evbuffer_add_cb(bufferevent_get_output(bufferevent), { buffer, info, arg in
            guard let buffer, let info, let arg else { return }
            let tap = Unmanaged<ConnectionTap>.fromOpaque(arg).takeUnretainedValue()
            if info.pointee.n_deleted > 0, evbuffer_get_length(buffer) == 0 {
                tap.outputDrained()
            }
            tap.outputGrew(buffer, added: info.pointee.n_added, originalSize: info.pointee.orig_size)
        }, me)
    }

    /// The output was written out: an answer's deadline is met, and what waited for it runs.
    private func outputDrained() {
        if let sendTimer { event_del(sendTimer) }
        if let drained = whenDrained {
            whenDrained = nil
            drained()
        }
    }

    /// Gives what the output holds now `seconds` to be written out; past that the connection
    /// is ended, as evhttp ends one whose write times out. evhttp's own write timeout starts
    /// over with every byte written, and a throttled write waits on the token bucket outside
    /// it, so without this a client reading a byte now and then (or a throttle of 1 B/s)
    /// would pin the answer's bytes and the socket for as long as it liked.
    func armSendDeadline(seconds: Int) {
        guard outputEntry != nil, seconds > 0 else { return }
        if sendTimer == nil {
            sendTimer = event_new(worker.base, -1, 0, { _, _, arg in
                guard let arg else { return }
                let tap = Unmanaged<ConnectionTap>.fromOpaque(arg).takeUnretainedValue()
                tap.sendDeadlinePassed()
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        var delay = timeval(tv_sec: seconds, tv_usec: 0)
        if let sendTimer { event_add(sendTimer, &delay) }
    }

    private func sendDeadlinePassed() {
        let unsent = evbuffer_get_length(bufferevent_get_output(bufferevent))
        guard outputEntry != nil, unsent > 0 else { return }
        worker.logger.info("closing a connection whose answer was not taken in time (\(unsent) bytes unsent)")
        // On the next turn, outside this timer's callback: evhttp frees the connection, and the
        // tap's detach frees the timer.
        worker.runOnLoop { [weak self] _ in
            guard let self, outputEntry != nil else { return }
            bufferevent_trigger_event(bufferevent, Int16(BEV_EVENT_WRITING | BEV_EVENT_TIMEOUT), 0)
        }
    }

    /// evhttp handed the connection's request to us: its deadline is met.
    func requestDispatched() {
        consumedSinceDispatch = 0
        requestBegan = nil
        answering = true
        endScheduled = false
    }

    /// The answer is handed over; the next request's time starts with its first byte.
    func answerFinished() { answering = false }

    /// Request bytes came in. The first of a request starts its clock; once the clock has
    /// passed the timeout, the connection is ended on a later turn (``endIfStillLate()``):
    /// here the buffer being filled is still in use, and the same read may yet complete the
    /// request, which evhttp would then hand to us.
    private func bytesArrived() {
        guard !answering else { return }
        guard requestBegan != nil else {
            requestBegan = Clock.coarseSeconds()
            return
        }
        guard isLate, !endScheduled else { return }
        endScheduled = true
        // Told when evhttp frees the connection, the tap knows not to end it a second time.
        watchCloseBeforeAnyRequest()
        worker.runOnLoop { [self] _ in endIfStillLate() }
    }

    /// Asks evhttp to call ``connectionClosing()`` when it frees this connection, even before
    /// any request has reached us (``Worker/noteDispatch(of:)`` asks at the first request):
    /// evhttp tells only a close callback, and its connection is the argument of the callbacks
    /// it set on our bufferevent.
    private func watchCloseBeforeAnyRequest() {
        var connection: UnsafeMutableRawPointer?
        bufferevent_getcb(bufferevent, nil, nil, nil, &connection)
        if let connection { worker.watchClose(of: OpaquePointer(connection), tap: self) }
    }

    /// Whether the request now arriving has taken longer than the timeout, counted in whole
    /// seconds (past it by up to one, never short of it), with no reply still going out.
    private var isLate: Bool {
        guard !answering, let began = requestBegan else { return false }
        return Clock.coarseSeconds() - began > worker.configuration.timeoutSeconds
            && evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0
    }

    /// Ends the connection as evhttp ends one that stays silent, a read timeout after which it
    /// frees the connection without an answer, unless it has closed meanwhile (the tap is then
    /// detached) or its request arrived after all.
    private func endIfStillLate() {
        endScheduled = false
        guard inputEntry != nil, isLate else { return }
        worker.logger.info("closing a connection whose request took over \(worker.configuration.timeoutSeconds)s to arrive")
        bufferevent_trigger_event(bufferevent, Int16(BEV_EVENT_READING | BEV_EVENT_TIMEOUT), 0)
    }

    /// evhttp is about to free the connection (its close callback; the socket is still open).
    /// After a 413 the socket is taken from the bufferevent first, so that freeing it does not
    /// close the socket — evhttp still shuts its sending side, which ends the answer with a FIN —
    /// and it lingers. Then the tap lets go.
    func connectionClosing() {
        if lingersAfterClose {
            let socket = bufferevent_getfd(bufferevent)
            if socket >= 0, bufferevent_setfd(bufferevent, -1) == 0 {
                LingeringClose.start(worker: worker, socket: socket)
            }
        }
        detach()
        worker.taps[UnsafeMutableRawPointer(bufferevent)] = nil
    }

    /// Removes the callbacks; called while the bufferevent is still alive (evhttp's close
    /// callback runs before it frees the connection).
    func detach() {
        liftWriteLimit()
        if let sendTimer {
            event_free(sendTimer)
            self.sendTimer = nil
        }
        if let inputEntry { evbuffer_remove_cb_entry(bufferevent_get_input(bufferevent), inputEntry) }
        if let outputEntry { evbuffer_remove_cb_entry(bufferevent_get_output(bufferevent), outputEntry) }
        inputEntry = nil
        outputEntry = nil
        whenDrained = nil
    }

    /// Lets the connection write at most `bytesPerSecond`, refilled every 100 ms (every second
    /// under 100 B/s), until ``liftWriteLimit()``.
    func limitWrites(bytesPerSecond: Int) {
        // Once the connection has closed, the bufferevent is gone.
        guard outputEntry != nil else { return }
        liftWriteLimit()
        // A tick short enough to be smooth, long enough that each one's share is exact.
        let tickMilliseconds = bytesPerSecond >= 100 ? 100 : 1000
        let perTick = max(1, bytesPerSecond * tickMilliseconds / 1000)
        var tick = timeval(tv_sec: tickMilliseconds / 1000, tv_usec: Int((tickMilliseconds % 1000) * 1000))
        // Reads stay unlimited (the largest rate libevent accepts).
        guard let bucket = ev_token_bucket_cfg_new(Int.max, Int.max, perTick, perTick, &tick) else { return }
        if bufferevent_set_rate_limit(bufferevent, bucket) == 0 {
            writeLimit = bucket
        } else {
            ev_token_bucket_cfg_free(bucket)
        }
    }

    /// Removes a write limit; the bucket is freed only once the bufferevent no longer uses it.
    func liftWriteLimit() {
        guard let bucket = writeLimit else { return }
        bufferevent_set_rate_limit(bufferevent, nil)
        ev_token_bucket_cfg_free(bucket)
        writeLimit = nil
    }

    /// Writes as much of `reply` as the socket takes now, as the bufferevent would on the loop's
    /// next turn, and returns how many bytes went (0 after an error, which the bufferevent then
    /// meets and reports to evhttp as it always would). Nothing is written while a throttle
    /// limits the connection's writes (those go through the bufferevent's token bucket), while
    /// the output still holds bytes (they go first), or once the connection has closed.
    func writeThroughNow(_ reply: WholeReply) -> Int {
        guard writeLimit == nil, outputEntry != nil,
              evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0 else { return 0 }
        let socket = bufferevent_getfd(bufferevent)
        guard socket >= 0 else { return 0 }
        return max(0, reply.write(to: socket))
    }

    /// Runs `write` (which adds one of our replies to the output) with the output callback
    /// switched off: cheaper than hearing about every header line, and it is what tells our
    /// bytes from evhttp's. Does nothing special once the connection is gone.
    func whileWritingOwnReply(_ write: () -> Void) {
        guard let outputEntry else { return write() }
        let output = bufferevent_get_output(bufferevent)
        evbuffer_cb_clear_flags(output, outputEntry, UInt32(EVBUFFER_CB_ENABLED))
        write()
        // `write` may end the connection (evhttp frees it when the client already left).
        if let current = self.outputEntry, current == outputEntry {
            evbuffer_cb_set_flags(output, current, UInt32(EVBUFFER_CB_ENABLED))
        }
    }

    private func outputGrew(_ buffer: OpaquePointer, added: Int, originalSize: Int) {
        guard added > 0, !rewriting else { return }
        if foreignStart == nil { foreignStart = originalSize }
        // A socket bufferevent keeps its output "frozen at the start" except while it writes
        // (bufferevent_sock.c, bufferevent_writecb), which makes reading or draining the front
        // fail. Do what libevent does around its own writes: unfreeze, work, freeze again.
        evbuffer_unfreeze(buffer, 1)
        examineForeignReply(in: buffer)
        evbuffer_freeze(buffer, 1)
    }

    private func examineForeignReply(in buffer: OpaquePointer) {
        guard let start = foreignStart else { return }
        let total = evbuffer_get_length(buffer)
        if foreignHead == nil {
            guard let head = readHead(of: buffer, from: start) else { return }
            foreignHead = head
        }
        guard let head = foreignHead else { return }
        if head.status < 200 {
            // 100 Continue: evhttp's to send, and it has no body.
            foreignStart = nil
            foreignHead = nil
            return
        }
        // Wait until the whole page is in: its Content-Length, or (HTTP/1.0, no length) the body.
        if let length = head.contentLength {
            guard total >= head.end + length else { return }
        } else {
            guard total > head.end else { return }
        }
        replaceForeignReply(in: buffer, from: start, status: head.status, version: head.version)
    }

    /// Parses the status line and Content-Length of the reply starting at `start`, once its
    /// head is complete.
    private func readHead(of buffer: OpaquePointer, from start: Int) -> (end: Int, status: Int, version: String, contentLength: Int?)? {
        var from = evbuffer_ptr()
        guard evbuffer_ptr_set(buffer, &from, start, EVBUFFER_PTR_SET) == 0 else { return nil }
        let found = evbuffer_search(buffer, "\r\n\r\n", 4, &from)
        guard found.pos >= 0 else { return nil }
        let length = found.pos - start
        var bytes = [UInt8](repeating: 0, count: length)
        let copied = bytes.withUnsafeMutableBytes { evbuffer_copyout_from(buffer, &from, $0.baseAddress, length) }
        guard copied == length else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = lines.first else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let contentLength = lines.dropFirst().lazy.compactMap { line -> Int? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].equalsIgnoringASCIICase("Content-Length") else { return nil }
            return Int(line[line.index(after: colon)...].filter { $0 != " " })
        }.first
        return (found.pos + 4, status, String(parts[0]), contentLength)
    }

    private func replaceForeignReply(in buffer: OpaquePointer, from start: Int, status evhttpStatus: Int, version: String) {
        rewriting = true
        defer {
            rewriting = false
            foreignStart = nil
            foreignHead = nil
        }
        let pendingInput = evbuffer_get_length(bufferevent_get_input(bufferevent))
        let oversizedHead = consumedSinceDispatch + pendingInput > worker.configuration.maxHeaderBytes
        let status = evhttpStatus == 400 && oversizedHead ? 431 : evhttpStatus
        let body = worker.errorBody(status, Self.message(for: status, limits: worker.configuration))
        let head = "\(version) \(status) \(HTTPStatus.phrase(for: status))\r\n"
            + "Content-Type: \(MediaType.json)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\nDate: \(HTTPDate.now())\r\n\r\n"

        // Keep whatever precedes evhttp's page (an earlier reply still being flushed).
        if start == 0 {
            evbuffer_drain(buffer, evbuffer_get_length(buffer))
        } else if let kept = evbuffer_new() {
            evbuffer_remove_buffer(buffer, kept, start)
            evbuffer_drain(buffer, evbuffer_get_length(buffer))
            evbuffer_add_buffer(buffer, kept)
            evbuffer_free(kept)
        }
        var headBytes = Array(head.utf8)
        headBytes.withUnsafeMutableBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
        body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
        worker.logRejection(status: status, bytes: body.count)
        // The client may still be sending the body it was refused: once the answer is out, the
        // socket is read to its end, so a reset does not overtake the answer. That happens as
        // evhttp closes the connection.
        if status == 413 {
            lingersAfterClose = true
            watchCloseBeforeAnyRequest()
        }
    }

    static func message(for status: Int, limits: TransportConfiguration) -> String {
        switch status {
        case 400: "Malformed request: the request line or a header could not be parsed"
        case 413: "Request body is larger than the limit of \(limits.maxBodyBytes) bytes"
        case 417: "Unsupported Expect header: only '100-continue' is understood"
        case 431: "Request line and headers are larger than the limit of \(limits.maxHeaderBytes) bytes"
        default: HTTPStatus.phrase(for: status)
        }
    }
}
