import CLibevent
import Logging
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection, on a bufferevent of the worker's loop: requests are read off it with
/// ``HTTP1RequestParser``, each whole one is answered by the endpoint's responder, and the
/// answers go out in order. One request is answered at a time; pipelined requests wait in the
/// input meanwhile.
///
/// Its deadlines: a request must arrive whole within the timeout of its first byte; a
/// connection may idle that long between requests, and its output may go that long without the
/// client taking any of it (the loop's sweep keeps both: ``ConnectionWatch``).
///
/// Lifetime: the worker's `connections` table holds it from accept to ``close()``. libevent's
/// callbacks reach it unretained (``callbackTarget``) and keep it alive while they run.
final class HTTPConnection {
    unowned(unsafe) let worker: Worker
    unowned(unsafe) let endpoint: Endpoint
    let bufferevent: OpaquePointer
    /// The bufferevent's socket, kept here: asking libevent for it on every reply takes its lock.
    let socket: Int32
    /// On an HTTPS listener: the TLS context and this connection's `SSL`, which its OpenSSL
    /// bufferevent reads and writes through (HTTPConnection+TLS.swift). The connection owns
    /// both the `SSL` and the socket, so that it can linger on the socket as it does on a plain one.
    let secure: (context: TLSContext, session: OpaquePointer)?
    /// The socket's read event. The connection reads its socket itself, into the bufferevent's
    /// input: the bufferevent's own read asks the kernel how much is waiting first
    /// (`ioctl(FIONREAD)`), a third system call on every request beside the read and the write.
    /// The bufferevent writes, times writes out and throttles (docs/transport.md#libevent).
    /// Over TLS there is none: the OpenSSL bufferevent reads and decrypts.
    private var readEvent: OpaquePointer?
    /// Read and changed only on the loop's thread, never while another access to it is open:
    /// no runtime exclusivity check, which would cost a call and a copy of the parser each time.
    @exclusivity(unchecked) private var parser: HTTP1RequestParser

    /// Where the connection stands (its phase, the back-pressure it applies, what the sweep has
    /// seen of it): every decision is the state's, the connection carries it out. Read and changed
    /// only on the loop's thread, one access at a time, like ``parser``.
    @exclusivity(unchecked) var state = ConnectionState()
    /// Every byte of output handed to the socket or queued for it: with what is still unsent
    /// here and in the kernel, it tells how much the client has taken.
    @exclusivity(unchecked) private var handedBytes: UInt64 = 0

    /// The request deadline, armed at a request's first byte.
    private var requestTimer: OpaquePointer?
    /// A delayed answer's wait or a hang's hold: what to do at its end, and if the client
    /// leaves first.
    private var pending: (timer: OpaquePointer, then: () -> Void, clientLeft: () -> Void)?
    /// The token bucket of a throttled answer, while one limits the connection's writes.
    private var writeLimit: OpaquePointer?
    /// Whether a `hang` fault holds the connection: a graceful stop closes it at once.
    var isHeld: Bool { state.isHeld }
    /// The stream the connection became after a `101` (HTTPConnection+Upgrade.swift).
    var upgradedStream: UpgradedStream?
    /// The answer a deferred delivery waits for (HTTPConnection+Deferred.swift).
    var awaitedAnswer: AwaitedAnswer?

    /// - Returns: nil when libevent cannot take the socket (the caller closes it).
    init?(worker: Worker, endpoint: Endpoint, socket: Int32) {
        if let tls = endpoint.tls {
            guard let made = tls.makeBufferevent(base: worker.base, socket: socket) else { return nil }
            bufferevent = made.bufferevent
            secure = (tls, made.session)
        } else {
            guard let bufferevent = bufferevent_socket_new(worker.base, socket, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
            else { return nil }
            self.bufferevent = bufferevent
            secure = nil
        }
        self.worker = worker
        self.endpoint = endpoint
        self.socket = socket
        let configuration = worker.configuration
        parser = HTTP1RequestParser(
            limits: HTTP1Limits(
                maxHeadBytes: configuration.maxHeaderBytes, maxHeaderCount: configuration.maxHeaderCount,
                maxBodyBytes: configuration.maxBodyBytes))
    }

    private var callbackTarget: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Runs `body` on the connection behind a callback's argument, kept alive meanwhile: the
    /// callback may close it, which drops the worker's reference.
    static func with(_ arg: UnsafeMutableRawPointer?, _ body: (HTTPConnection) -> Void) {
        guard let arg else { return }
        let connection = Unmanaged<HTTPConnection>.fromOpaque(arg).takeUnretainedValue()
        withExtendedLifetime(connection) { body(connection) }
    }

    /// Starts reading. Called once, after the worker has recorded the connection.
    func start() {
        // libevent writes at most 16 KiB per call by default: a 34 KB reply took three writev
        // calls (and, with TCP_NODELAY, three pushes). Up to 1 MiB goes in one.
        worker.logger.succeeded(
            bufferevent_set_max_single_write(bufferevent, Worker.largestSingleWrite), "bufferevent_set_max_single_write"
        )
        guard secure == nil else { return startSecure() }
        // No read callback: the connection reads the socket itself (``readEvent``).
        bufferevent_setcb(
            bufferevent, nil,
            { _, arg in
                HTTPConnection.with(arg) { $0.outputDrained() }
            },
            { _, events, arg in
                HTTPConnection.with(arg) { $0.happened(events) }
            }, callbackTarget)
        readEvent = event_new(
            worker.base, socket, Int16(EV_READ | EV_PERSIST),
            { _, _, arg in
                HTTPConnection.with(arg) { $0.socketReadable() }
            }, callbackTarget)
        // A bufferevent keeps its input's end frozen but while it reads into it itself.
        guard readEvent != nil, let input = bufferevent_get_input(bufferevent),
            worker.logger.succeeded(evbuffer_unfreeze(input, 0), "evbuffer_unfreeze", "closing the new connection"),
            worker.logger.succeeded(
                bufferevent_enable(bufferevent, Int16(EV_WRITE)), "bufferevent_enable", "closing the new connection"),
            resumeReading()
        else { return close() }
    }

    /// Bytes read from the socket at most at once: a whole request of nearly any client, and a
    /// large body in few reads.
    static let readSize = 16 * 1024

    /// The socket has bytes (or its end): they join the input, which is then parsed.
    private func socketReadable() {
        guard let input = bufferevent_get_input(bufferevent) else { return }
        var space = iovec()
        guard evbuffer_reserve_space(input, Self.readSize, &space, 1) == 1 else {
            worker.logger.error("evbuffer_reserve_space failed: closing the connection")
            return close()
        }
        switch SystemCalls.read(socket, into: space.iov_base, count: space.iov_len) {
        case .success(let count) where count > 0:
            space.iov_len = count
            guard
                worker.logger.succeeded(
                    evbuffer_commit_space(input, &space, 1), "evbuffer_commit_space", "closing the connection")
            else { return close() }
            return readable()
        case .failure(let error) where error.isTransient:
            return
        case .success:
            // The client's end: nothing more will come.
            pauseReading()
            clientClosed(reset: false)
        case .failure:
            // A broken connection.
            pauseReading()
            clientClosed(reset: true)
        }
    }

    /// Starts (or resumes) watching the socket for input.
    /// - Returns: false when libevent refused it (the caller closes the connection).
    func resumeReading() -> Bool {
        guard let readEvent else { return secure != nil && resumeSecureReading() }
        return worker.logger.succeeded(event_add(readEvent, nil), "event_add", "closing the connection")
    }

    /// Stops watching the socket for input; what has arrived stays in the input.
    private func pauseReading() {
        guard let readEvent else { return pauseSecureReading() }
        worker.logger.succeeded(event_del(readEvent), "event_del")
    }

    // MARK: - Reading

    /// Parses what has arrived, answering each request it completes, until the input is used
    /// up, an answer is pending, or the connection is ending.
    func readable() {
        state.watch.sawActivity()
        switch state.inputReady() {
        case .toStream: return upgradedInputArrived()
        case .hold: return holdInput()
        case .alreadyParsing: return
        case .parse(let resume):
            if resume { guard resumeReading() else { return close() } }
        }
        state.parsingStarted()
        defer { state.parsingEnded() }
        guard let input = bufferevent_get_input(bufferevent) else { return }
        while state.isReading, evbuffer_get_length(input) > 0 {
            // The next request waits while earlier answers fill the output, and while a
            // throttled one is still going out: its limit and deadline are its own.
            let unsent = evbuffer_get_length(bufferevent_get_output(bufferevent))
            if state.outputHoldsParsing(unsent: unsent, throttled: writeLimit != nil) { return holdInput() }
            switch parseInput(input) {
            case .needMore:
                requestProgressed()
            case .complete(let head, let request, _):
                requestArrived(head, request)
            case .failed(let error, _):
                refuse(error)
            }
        }
        if state.isReading { requestProgressed() }
        // A client that closed its sending side has had every whole request it sent answered.
        if state.inputUsedUp(inputEmpty: evbuffer_get_length(input) == 0) { endAfterOutput() }
    }

    /// Bytes that arrive while they cannot be parsed (an answer is pending, or earlier answers
    /// are unsent) wait in the input, up to a bound (``ConnectionState/holdInput(unparsed:)``):
    /// past it reading stops until they are parsed. (A read watermark would do the same at the
    /// cost of a check and an event change on every read.)
    private func holdInput() {
        guard let input = bufferevent_get_input(bufferevent), state.holdInput(unparsed: evbuffer_get_length(input))
        else { return }
        pauseReading()
    }

    /// Closes once the output has been written out (at once when it is empty).
    func endAfterOutput() {
        state.endAfterOutput()
        pauseReading()
        if evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0 { close() }
    }

    /// Feeds the input's contiguous pieces to the parser, draining what it consumed: the step
    /// that finished a request (or failed), or `needMore` with everything consumed.
    private func parseInput(_ input: OpaquePointer) -> HTTP1ParseStep {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 8) { vectors -> HTTP1ParseStep in
            let count = Int(evbuffer_peek(input, -1, nil, vectors.baseAddress, 8))
            var consumed = 0
            for index in 0..<min(count, vectors.count) {
                // Lent to Core as a bounds-checked span: the parser reads no pointer.
                let piece = Span<UInt8>(
                    _unsafeBytes: UnsafeRawBufferPointer(start: vectors[index].iov_base, count: vectors[index].iov_len))
                let step = parser.parse(piece)
                switch step {
                case .needMore(let used):
                    consumed += used
                case .complete(_, _, let used), .failed(_, let used):
                    evbuffer_drain(input, consumed + used)
                    return step
                }
            }
            evbuffer_drain(input, consumed)
            return .needMore(consumed: consumed)
        }
    }

    /// Part of a request has arrived: its deadline starts with its first byte, and a client
    /// waiting for `100 Continue` is told to go on.
    private func requestProgressed() {
        guard parser.isMidRequest else { return }
        if requestTimer == nil {
            requestTimer = event_new(
                worker.base, -1, 0,
                { _, _, arg in
                    HTTPConnection.with(arg) { $0.requestTookTooLong() }
                }, callbackTarget)
            if worker.configuration.timeoutSeconds > 0, let requestTimer {
                var timeout = timeval(tv_sec: worker.configuration.timeoutSeconds, tv_usec: 0)
                // A request without its deadline could hold the connection for ever.
                guard
                    worker.logger.succeeded(
                        event_add(requestTimer, &timeout), "event_add",
                        "closing a connection whose request has no deadline")
                else { return close() }
            }
        }
        if state.continueNeeded(expectsContinue: parser.pendingHead?.expectsContinue == true) {
            write(Self.continueLine)
        }
    }

    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func requestTookTooLong() {
        guard state.isReading, parser.isMidRequest else { return }
        worker.logger.info(
            "closing a connection whose request took over \(worker.configuration.timeoutSeconds)s to arrive")
        close()
    }

    private func requestArrived(_ head: HTTP1Head, _ request: HTTPRequest) {
        cancelRequestTimer()
        state.requestArrived(keepAlive: head.keepAlive)
        liftWriteLimit()
        guard secure != nil else { return endpoint.dispatch(request, head: head, on: self) }
        var request = request
        request.isSecure = true
        endpoint.dispatch(request, head: head, on: self)
    }

    /// A request the parser refused: its error answers, and the connection closes.
    private func refuse(_ error: HTTP1ParseError) {
        cancelRequestTimer()
        // The client may still be sending what was refused (a body over the limit, the rest of
        // an oversized head): read it to its end after the answer, so that a reset (the
        // kernel's answer to closing with unread bytes) does not overtake the answer.
        state.requestRefused(
            lingers: error.status == 413 || evbuffer_get_length(bufferevent_get_input(bufferevent)) > 0)
        let body = worker.errorBody(error.status, error.message)
        worker.logRejection(status: error.status, bytes: body.count)
        let response = HTTPResponse.json(error.status, bytes: body, headers: ["Connection": "close"])
        sendWhole(response, exchange: nil, withoutBody: parser.method == .head)
    }

    private func cancelRequestTimer() {
        guard let requestTimer else { return }
        event_free(requestTimer)
        self.requestTimer = nil
    }

    /// The connection becomes a byte stream: no more requests, and no request or idle deadline
    /// (the protocol on it keeps its own); output the client does not take is still dropped
    /// after the timeout (``ConnectionWatch``).
    func switchToStream() {
        if state.switchedToStream() {
            guard resumeReading() else { return close() }
        }
    }

    // MARK: - Answering

    /// The answer to the request now being answered has been handed over whole: the next one
    /// may be read, or the connection ends once the answer is out.
    func answerFinished() {
        switch state.answerFinished() {
        case .nothing:
            return
        case .endAfterOutput:
            state.watch.sawActivity()
            endAfterOutput()
        case .readNext(let parseNow):
            state.watch.sawActivity()
            if parseNow { readable() }
        }
    }

    /// Waits `milliseconds` before `then`, unless the client leaves first (its end of file
    /// arrives, as reading stays on): then `clientLeft` runs and the connection closes.
    func wait(milliseconds: Int, then: @escaping () -> Void, clientLeft: @escaping () -> Void) {
        precondition(pending == nil, "one wait at a time")
        guard
            let timer = event_new(
                worker.base, -1, 0,
                { _, _, arg in
                    HTTPConnection.with(arg) { $0.waitEnded() }
                }, callbackTarget)
        else { return then() }
        var delay = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
        guard worker.logger.succeeded(event_add(timer, &delay), "event_add", "answering without the delay") else {
            event_free(timer)
            return then()
        }
        pending = (timer, then, clientLeft)
    }

    /// Ends a wait without running either of its closures (its answer came another way).
    func cancelWait() {
        guard let (timer, _, _) = pending else { return }
        event_free(timer)
        pending = nil
    }

    private func waitEnded() {
        guard let (timer, then, _) = pending else { return }
        event_free(timer)
        pending = nil
        then()
    }

    // MARK: - Writing

    /// Lets the connection write at most `bytesPerSecond`, refilled every 100 ms (every second
    /// under 100 B/s), until the next request or the end.
    func limitWrites(bytesPerSecond: Int) {
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
    private func liftWriteLimit() {
        guard let bucket = writeLimit else { return }
        worker.logger.succeeded(bufferevent_set_rate_limit(bufferevent, nil), "bufferevent_set_rate_limit")
        ev_token_bucket_cfg_free(bucket)
        writeLimit = nil
    }

    /// Writes as much of `reply` as the socket takes now (nothing while a throttle limits the
    /// connection or earlier bytes wait in the output), and leaves the rest to the bufferevent.
    func write(_ reply: WholeReply) {
        guard let output = bufferevent_get_output(bufferevent) else { return }
        var written = 0
        // Straight to the socket when it can take the reply now; TLS's bytes are OpenSSL's to write.
        if writeLimit == nil, secure == nil, evbuffer_get_length(output) == 0 {
            if case .success(let count) = reply.write(to: socket) { written = count }
        }
        if written < reply.count {
            guard
                worker.logger.succeeded(
                    reply.append(to: output, after: written), "evbuffer_add",
                    "closing a connection whose answer could not be queued")
            else {
                return close()
            }
        }
        if secure != nil { joinForOneRecord(output) }
        handed(reply.count)
    }

    /// Adds `reply` to the output, for the bufferevent to send with what is added after it
    /// before the loop turn ends (the first pieces of a body), in one write.
    /// - Returns: false when it could not be queued, and the connection was closed.
    func queue(_ reply: WholeReply) -> Bool {
        guard
            worker.logger.succeeded(
                reply.append(to: bufferevent_get_output(bufferevent), after: 0), "evbuffer_add",
                "closing a connection whose answer could not be queued")
        else {
            close()
            return false
        }
        handed(reply.count)
        return true
    }

    /// Adds bytes to the output, for the bufferevent to send.
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let status = bytes.withUnsafeBytes {
            evbuffer_add(bufferevent_get_output(bufferevent), $0.baseAddress, $0.count)
        }
        guard worker.logger.succeeded(status, "evbuffer_add", "closing the connection") else { return close() }
        handed(bytes.count)
    }

    /// Bytes queued for the socket that it has not yet taken.
    var unsentOutput: Int { evbuffer_get_length(bufferevent_get_output(bufferevent)) }

    /// Counts bytes written to the socket or queued for it (every path of output comes here).
    func handed(_ count: Int) {
        handedBytes &+= UInt64(count)
    }

    /// What the sweep finds the connection doing: output the client has not taken first, then
    /// whether it is idle.
    var activity: ConnectionWatch.Activity {
        guard !state.isClosed else { return .busy }
        let unsent = evbuffer_get_length(bufferevent_get_output(bufferevent))
        guard unsent == 0 else {
            let inKernel = UInt64(max(0, (try? SystemCalls.unacknowledgedBytes(socket).get()) ?? 0))
            return .sending(delivered: handedBytes &- UInt64(unsent) &- inKernel)
        }
        return isIdle ? .idle : .busy
    }

    /// The client has taken none of the output for the timeout (``ConnectionWatch``): whether it
    /// stopped reading or a throttle's answer waits behind a full window, the connection goes.
    func outputStalled() {
        guard !state.isClosed else { return }
        let unsent = evbuffer_get_length(bufferevent_get_output(bufferevent))
        worker.logger.info(
            """
            resetting a connection whose client took none of its output for \(worker.configuration.timeoutSeconds)s \
            (\(unsent) bytes unsent)
            """
        )
        // A reset, not a FIN: the kernel drops what it still buffers for the client too
        // instead of trickling it out after the socket is gone.
        reset()
    }

    /// The output has been written out.
    func outputDrained() {
        switch state.outputDrained() {
        case .nothing: break
        case .close: close()
        case .parse: readable()
        case .streamDrained: upgradedStream?.outputDrained()
        }
    }

    // MARK: - Events and the end

    func happened(_ events: Int16) {
        guard secure == nil else { return secureEvent(events) }
        // The bufferevent only writes: reads, and the end of the client's stream, are
        // `socketReadable`'s, so no EOF comes here; a failed write is an error.
        // (There are no timeouts on the bufferevent: the loop's sweep watches idle connections
        // and output that makes no progress, the request timer slow requests.)
        if Int32(events) & Int32(BEV_EVENT_ERROR) != 0 {
            clientClosed(reset: true)
        }
    }

    /// The client closed its end (or the connection broke).
    func clientClosed(reset: Bool) {
        // A wait pending when the client goes is its answer's: closing runs its `clientLeft`.
        switch state.peerClosed(
            reset: reset, waiting: pending != nil,
            outputEmpty: evbuffer_get_length(bufferevent_get_output(bufferevent)) == 0,
            inputEmpty: evbuffer_get_length(bufferevent_get_input(bufferevent)) == 0)
        {
        case .nothing: break
        case .close: close()
        case .finishAnswerThenClose: pauseReading()
        case .endAfterOutput: endAfterOutput()
        }
    }

    /// Ends the connection now: the socket closes (or lingers, after a refusal) and the worker
    /// forgets it. Safe to call more than once.
    func close() {
        guard let lingers = state.close() else { return }
        cancelRequestTimer()
        var unfinished: (() -> Void)?
        if let (timer, _, clientLeft) = pending {
            event_free(timer)
            pending = nil
            unfinished = clientLeft
        }
        // A deferred answer whose timer has fired while its completion is on its way.
        if unfinished == nil, let awaited = awaitedAnswer { unfinished = { self.awaitedAnswerLost(awaited) } }
        liftWriteLimit()
        if let readEvent {
            event_free(readEvent)
            self.readEvent = nil
        }
        if lingers, secure == nil {
            let socket = bufferevent_getfd(bufferevent)
            if socket >= 0, bufferevent_setfd(bufferevent, -1) == 0 { lingerOn(socket) }
        }
        bufferevent_free(bufferevent)
        if let secure { closeSecure(secure.session, lingers: lingers) }
        worker.connections[ObjectIdentifier(self)] = nil
        // A request still waiting to be answered is finished (and logged) as its client gone.
        unfinished?()
        // An upgraded stream's handler hears of the end last.
        if let upgradedStream {
            self.upgradedStream = nil
            upgradedStream.connectionClosed()
        }
    }

    /// Ends the answer with a FIN and reads the client's remaining bytes to drop them.
    func lingerOn(_ socket: Int32) {
        worker.logger.succeeded(SystemCalls.shutdownWrites(socket), "shutdown(SHUT_WR)", level: .debug)
        LingeringClose.start(worker: worker, socket: socket)
    }

    /// Closes with a TCP reset instead of a FIN (the `reset` fault).
    func reset() {
        let socket = bufferevent_getfd(bufferevent)
        worker.logger.succeeded(
            SystemCalls.setOption(socket, SOL_SOCKET, SO_LINGER, linger(l_onoff: 1, l_linger: 0)),
            "setsockopt(SO_LINGER)", "closing with a FIN instead of a reset")
        close()
    }

    /// Whether the connection is idle: no request arriving or being answered (a graceful stop
    /// closes these at once).
    var isIdle: Bool { state.isReading && !parser.isMidRequest && !isSending }

    /// Whether answers are still going out.
    var isSending: Bool { !state.isClosed && evbuffer_get_length(bufferevent_get_output(bufferevent)) > 0 }
}
