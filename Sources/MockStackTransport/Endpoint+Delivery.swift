import CEvhttpRequest
import CLibevent
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MockStackCore

extension Endpoint {
    /// Sends `response` the way its ``Delivery`` asks.
    func deliver(_ response: HTTPResponse, _ exchange: Exchange) {
        deliver(response, as: response.delivery, exchange)
    }

    private func deliver(_ response: HTTPResponse, as delivery: Delivery, _ exchange: Exchange) {
        switch delivery {
        case .immediate:
            sendWhole(response, exchange)
        case .delayed(let milliseconds, let then):
            // evhttp turned reading off before calling us, so it would not notice the client
            // leaving: looked for here, so that a delay of minutes does not keep the socket.
            let due = Clock.nowNanoseconds() + UInt64(max(0, milliseconds)) * 1_000_000
            watchClient(of: exchange.request, until: due, clientLeft: { connection in
                guard let connection else { return self.deliver(response, as: then, exchange) }
                // Freed before it is logged, so a log line reading "client gone" means it is.
                evhttp_connection_free(connection)
                self.finish(exchange, status: 0, bytes: 0, note: "client gone")
            }, timeUp: { self.deliver(response, as: then, exchange) })
        case .chunked(let chunkSize, let interval):
            if exchange.isHead || response.forbidsBody {
                sendWhole(response, exchange)
            } else {
                sendChunked(response, exchange, chunkSize: max(1, chunkSize), interval: max(0, interval))
            }
        case .throttled(let bytesPerSecond):
            // libevent's own rate limit on the connection's writes; the tap lifts it when the
            // connection's next request arrives or the connection closes.
            exchange.tap?.limitWrites(bytesPerSecond: max(1, bytesPerSecond))
            sendWhole(response, exchange, bytesPerSecond: max(1, bytesPerSecond))
        case .fault(let fault):
            perform(fault, on: response, exchange)
        }
    }

    /// Adds the response's headers, and a `Date` from the loop's cache unless it has one.
    private func addHeaders(of response: HTTPResponse, to headers: UnsafeMutablePointer<evkeyvalq>) {
        var hasDate = false
        for field in response.headers {
            // The framing is evhttp's here (chunked): a response's own would be sent beside it.
            if field.name.equalsIgnoringASCIICase("Content-Length") || field.name.equalsIgnoringASCIICase("Transfer-Encoding") { continue }
            // evhttp refuses values with CR or LF (header injection); such a field is dropped.
            Self.add(field.name, field.value, to: headers)
            if !hasDate, field.name.equalsIgnoringASCIICase("Date") { hasDate = true }
        }
        if !hasDate {
            worker.date.refresh()
            Self.add("Date", worker.date.value, to: headers)
        }
    }

    /// `withCString` rather than an implicit conversion: a small string (most header names)
    /// has no address of its own, and the implicit conversion copies it to the heap to make one.
    private static func add(_ name: String, _ value: String, to headers: UnsafeMutablePointer<evkeyvalq>) {
        name.withCString { name in
            value.withCString { value in _ = evhttp_add_header(headers, name, value) }
        }
    }

    /// Sends the whole reply: the response's rendered head (``RenderedHead``, prepared once for
    /// fixtures) with `Date` and `Connection`, then the body, written straight to the socket as
    /// far as it takes them, then `evhttp_send_reply_end`, which finishes the request at once
    /// when nothing is left in the output, or once the bufferevent has sent the rest (http.c,
    /// 2.1.12). evhttp's own head formatting, a `vsnprintf` per header line, never runs.
    /// What the socket does not take at once must be written out within the send deadline
    /// (``TransportConfiguration/sendDeadlineSeconds(bytes:bytesPerSecond:)``).
    private func sendWhole(_ response: HTTPResponse, _ exchange: Exchange, bytesPerSecond: Int? = nil) {
        let request = exchange.request
        let sendsBody = !exchange.isHead && !response.forbidsBody
        guard let connection = evhttp_request_get_connection(request),
              let bufferevent = evhttp_connection_get_bufferevent(connection),
              let output = bufferevent_get_output(bufferevent) else {
            // The client left while the reply was pending (a delayed reply): evhttp detached
            // the request, and ending it frees it.
            evhttp_send_reply_end(request)
            finish(exchange, status: response.status, bytes: 0, note: "client gone")
            return
        }
        let head = response.head
        let asked = Self.connectionOption(of: request)
        let closes = asked == "close" || head.connection?.equalsIgnoringASCIICase("close") == true
        if closes, let headers = evhttp_request_get_output_headers(request) {
            // evhttp reads the request's output headers to decide whether to close after writing.
            evhttp_add_header(headers, "Connection", "close")
        }
        worker.date.refresh()
        // Say what the client asked for; an HTTP/1.0 client needs `keep-alive` echoed.
        let connectionLine = head.connection != nil || asked == nil ? [] : asked == "close" ? Self.connectionClose : Self.connectionKeepAlive
        let reply = WholeReply(head: head.bytes, date: head.hasDate ? [] : worker.date.line, connection: connectionLine,
                               body: sendsBody ? response.body : [])
        exchange.writingOwnReply {
            // A chunked request body left evhttp's `chunked` flag set, which would append a
            // last-chunk to this Content-Length reply.
            mockstack_evhttp_request_clear_chunked(request)
            // Written now rather than on the loop's next turn: with the output left empty,
            // `evhttp_send_reply_end` finishes the request at once and reading resumes, so the
            // poller is neither asked to watch for writability nor told to stop (two `epoll_ctl`s
            // and a wake-up per request), and the bytes go from the response's own arrays.
            // What the socket does not take goes the usual way: evhttp turned writing off while
            // it read this request, and turning it on lets the bufferevent send the rest and
            // then finish the request. Reading stays off meanwhile, as evhttp must not parse the
            // next request before this one is answered.
            // Finishing at once may free the connection (a `Connection: close` reply) inside
            // evhttp's own read callback, which the fault paths avoid. In 2.1.12 that is safe
            // here: after a server request's callback returns, neither evhttp_connection_done nor
            // the read functions above it touch the connection again, and the bufferevent they
            // run under holds a reference until its callback ends (http.c, bufferevent_sock.c).
            // Nothing of the request or connection is used after this call.
            let written = exchange.tap?.writeThroughNow(reply) ?? 0
            if written < reply.count {
                reply.append(to: output, after: written)
                bufferevent_enable(bufferevent, Int16(EV_WRITE))
                let unsent = reply.count - written
                exchange.tap?.armSendDeadline(seconds: worker.configuration.sendDeadlineSeconds(bytes: unsent, bytesPerSecond: bytesPerSecond))
            }
            evhttp_send_reply_end(request)
        }
        finish(exchange, status: response.status, bytes: sendsBody ? response.body.count : 0)
    }

    private static let connectionClose = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)

    private static func add(_ bytes: [UInt8], to output: OpaquePointer) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
    }

    /// `close` or `keep-alive` when the request's `Connection` header asks for one.
    private static func connectionOption(of request: OpaquePointer) -> String? {
        guard let headers = evhttp_request_get_input_headers(request),
              let value = evhttp_find_header(headers, "Connection") else { return nil }
        if evutil_ascii_strcasecmp(value, "close") == 0 { return "close" }
        if evutil_ascii_strcasecmp(value, "keep-alive") == 0 { return "keep-alive" }
        return nil
    }

    private func sendChunked(_ response: HTTPResponse, _ exchange: Exchange, chunkSize: Int, interval: Int) {
        let request = exchange.request
        if let headers = evhttp_request_get_output_headers(request) { addHeaders(of: response, to: headers) }
        exchange.writingOwnReply { evhttp_send_reply_start(request, Int32(response.status), response.reasonPhrase) }
        let body = response.body
        let chunkStarts = Array(stride(from: 0, to: body.count, by: chunkSize))

        // If the client leaves mid-stream evhttp detaches the request: chunk sends become
        // no-ops and reply_end frees it, so the sequence always runs to its end.
        func send(_ next: Int) {
            guard next < chunkStarts.count else {
                // The chunks' own pace is the answer's; what is left unsent then has a deadline.
                exchange.tap?.armSendDeadline(seconds: worker.configuration.sendDeadlineSeconds(bytes: 0))
                exchange.writingOwnReply { evhttp_send_reply_end(request) }
                finish(exchange, status: response.status, bytes: body.count)
                return
            }
            let start = chunkStarts[next]
            let end = min(body.count, start + chunkSize)
            if let chunk = evbuffer_new() {
                body[start..<end].withUnsafeBytes { _ = evbuffer_add(chunk, $0.baseAddress, $0.count) }
                exchange.writingOwnReply { evhttp_send_reply_chunk(request, chunk) }
                evbuffer_free(chunk)
            }
            if interval == 0 {
                send(next + 1)
            } else {
                worker.runOnLoop(after: interval) { _ in send(next + 1) }
            }
        }
        send(0)
    }

    private func perform(_ fault: Fault, on response: HTTPResponse, _ exchange: Exchange) {
        guard let connection = evhttp_request_get_connection(exchange.request),
              let bufferevent = evhttp_connection_get_bufferevent(connection) else {
            // The client left during a delay: evhttp detached the request, and ending it frees it.
            evhttp_send_reply_end(exchange.request)
            finish(exchange, status: 0, bytes: 0, note: "client gone")
            return
        }
        switch fault {
        case .hang:
            // Not in flight any more: a graceful stop need not wait for it.
            finish(exchange, status: 0, bytes: 0, note: fault.rawValue)
            let deadline = Clock.nowNanoseconds() + UInt64(max(0, worker.configuration.hangLimitMilliseconds)) * 1_000_000
            hold(exchange.request, until: deadline)
            return
        case .reset:
            // RST instead of FIN: linger 0, then close the socket now by putting /dev/null over
            // its descriptor; the number stays taken until evhttp frees the connection, so
            // nothing else can reuse it meanwhile (libevent-notes §6).
            let socket = bufferevent_getfd(bufferevent)
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            let devNull = open("/dev/null", O_RDWR)
            if devNull >= 0 {
                dup2(devNull, socket)
                close(devNull)
            }
        case .empty:
            break
        case .truncate, .malformedChunk, .randomThenClose:
            // Through the connection's output, however large; the tap (every connection has
            // one) frees the connection once the last byte is written.
            guard let tap = exchange.tap, let output = bufferevent_get_output(bufferevent) else { break }
            let bytes = FaultBytes.bytes(for: fault, of: response)
            tap.whenDrained = { [self] in freeOnNextTurn(connection) }
            exchange.writingOwnReply {
                Self.add(bytes, to: output)
                bufferevent_enable(bufferevent, Int16(EV_WRITE))
            }
            tap.armSendDeadline(seconds: worker.configuration.sendDeadlineSeconds(bytes: bytes.count))
            finish(exchange, status: 0, bytes: bytes.count, note: fault.rawValue)
            return
        }
        freeOnNextTurn(connection)
        finish(exchange, status: 0, bytes: 0, note: fault.rawValue)
    }

    /// Frees a connection one loop turn later: never inside its own callback chain.
    private func freeOnNextTurn(_ connection: OpaquePointer) {
        let address = UnsafeMutableRawPointer(connection)
        worker.runOnLoop { _ in evhttp_connection_free(OpaquePointer(address)) }
    }

    /// Keeps a `hang` request unanswered; closes the connection once its client has gone, at
    /// `deadline`, or when the server stops.
    private func hold(_ request: OpaquePointer, until deadline: UInt64) {
        watchClient(of: request, until: deadline, untilDrain: true, clientLeft: { connection in
            if let connection { evhttp_connection_free(connection) } else { evhttp_send_reply_end(request) }
        }, timeUp: {
            if let connection = evhttp_request_get_connection(request) { evhttp_connection_free(connection) } else { evhttp_send_reply_end(request) }
        })
    }

    /// Waits until `deadline` while a request goes unanswered, looking every 200 ms whether its
    /// client has closed its end (evhttp reads nothing meanwhile, so would not notice).
    /// - Parameters:
    ///   - untilDrain: also stop waiting once the server begins to stop.
    ///   - clientLeft: called with the connection to free, or nil when evhttp has already
    ///     detached the request from it.
    ///   - timeUp: called at the deadline with the client still there.
    private func watchClient(of request: OpaquePointer, until deadline: UInt64, untilDrain: Bool = false,
                             clientLeft: @escaping (OpaquePointer?) -> Void, timeUp: @escaping () -> Void) {
        let now = Clock.nowNanoseconds()
        // Rounded up, so the last look falls at the deadline and not just before it.
        let remaining = deadline > now ? Int((deadline - now + 999_999) / 1_000_000) : 0
        worker.runOnLoop(after: min(Self.clientCheckMilliseconds, remaining)) { worker in
            guard let connection = evhttp_request_get_connection(request) else { return clientLeft(nil) }
            if evhttp_connection_get_bufferevent(connection).map({ Self.peerHasLeft(bufferevent_getfd($0)) }) ?? true {
                return clientLeft(connection)
            }
            if Clock.nowNanoseconds() >= deadline || (untilDrain && worker.isDraining) { return timeUp() }
            self.watchClient(of: request, until: deadline, untilDrain: untilDrain, clientLeft: clientLeft, timeUp: timeUp)
        }
    }

    /// How often a waiting request's client is looked for.
    private static let clientCheckMilliseconds = 200

    /// Whether the peer has closed its end: a peek that finds end-of-file or an error.
    private static func peerHasLeft(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let received = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if received > 0 { return false }
        if received == 0 { return true }
        return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    private func finish(_ exchange: Exchange, status: Int, bytes: Int, note: String? = nil) {
        worker.requestFinished()
        exchange.tap?.answerFinished()
        let logger = worker.logger
        guard logger.logLevel <= .info else { return }
        let elapsed = Double(Clock.nowNanoseconds() - exchange.started) / 1_000_000
        let milliseconds = (elapsed * 100).rounded() / 100
        let outcome = note.map { "fault:\($0)" } ?? String(status)
        logger.info("\(exchange.method.rawValue) \(exchange.target) \(outcome) \(bytes)B \(milliseconds)ms")
    }
}
