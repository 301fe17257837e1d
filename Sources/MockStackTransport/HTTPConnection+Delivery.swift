import CLibevent
import Logging
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one answer needs to remember while it is delivered, possibly over several loop turns.
struct Exchange {
    let method: HTTPMethod
    let target: String
    let version: HTTP1Version
    /// When the request was handed over (a monotonic clock's nanoseconds); 0 when requests are
    /// not logged.
    let started: UInt64

    var isHead: Bool { method == .head }
}

extension Endpoint {
    /// Hands a whole request to the responder and sends what it answers.
    func dispatch(_ request: HTTPRequest, head: HTTP1Head, on connection: HTTPConnection) {
        // The clock is read only for the request log, the one reader of `started`.
        let started = worker.logsRequests ? MonotonicClock.nanoseconds() : 0
        worker.requestStarted()
        let exchange = Exchange(method: request.method, target: request.target, version: head.version, started: started)
        connection.deliver(responder.respond(to: request), exchange)
    }
}

extension HTTPConnection {
    /// Sends `response` the way its ``Delivery`` asks.
    func deliver(_ response: HTTPResponse, _ exchange: Exchange) {
        deliver(response, as: response.delivery, exchange)
    }

    private func deliver(_ response: HTTPResponse, as delivery: Delivery, _ exchange: Exchange) {
        switch delivery {
        case .immediate:
            sendWhole(response, exchange: exchange)
        case .delayed(let milliseconds, let then):
            // Reading stays on meanwhile, so a client that leaves is noticed at once and its
            // socket let go, however long the delay.
            wait(
                milliseconds: max(0, milliseconds), then: { self.deliver(response, as: then, exchange) },
                clientLeft: { self.finish(exchange, status: 0, bytes: 0, note: "client gone") })
        case .chunked(let chunkSize, let interval):
            // HTTP/1.0 has no chunked coding (RFC 9112 §6.1): its client gets the body whole,
            // ended by the close.
            if exchange.isHead || response.forbidsBody || exchange.version == .http10 {
                sendWhole(response, exchange: exchange)
            } else {
                sendChunked(response, exchange, chunkSize: max(1, chunkSize), interval: max(0, interval))
            }
        case .throttled(let bytesPerSecond):
            // libevent's own rate limit on the connection's writes, lifted at the next request.
            limitWrites(bytesPerSecond: max(1, bytesPerSecond))
            sendWhole(response, exchange: exchange)
        case .fault(let fault):
            perform(fault, on: response, exchange)
        case .upgrade(let upgrade):
            beginUpgrade(response, upgrade, exchange)
        case .streamed(let body):
            beginStreamedBody(response, body, exchange)
        case .deferred(let answer):
            awaitAnswer(answer, orElse: response, exchange)
        }
    }

    /// Sends the whole reply: the response's rendered head (``RenderedHead``, prepared once for
    /// fixtures) with `Date` and `Connection`, then the body, in one `writev` when the socket
    /// takes it all. `exchange` is nil for the transport's own error answers, which say
    /// `withoutBody` when they answer a HEAD request.
    func sendWhole(_ response: HTTPResponse, exchange: Exchange?, withoutBody: Bool = false) {
        let head = response.head
        if head.connection?.equalsIgnoringASCIICase("close") == true { state.closeAfterAnswer() }
        let connectionLine = connectionLine(for: head, exchange)
        worker.date.refresh()
        let sendsBody = exchange?.isHead != true && !withoutBody && !response.forbidsBody
        let reply = WholeReply(
            head: head.bytes, date: head.hasDate ? [] : worker.date.line, connection: connectionLine,
            body: sendsBody ? response.body : [])
        write(reply)
        if let exchange { finish(exchange, status: response.status, bytes: sendsBody ? response.body.count : 0) }
        answerFinished()
    }

    /// The `Connection` line the transport adds: that the connection ends, or the `keep-alive`
    /// an HTTP/1.0 client needs to hear (HTTP/1.1 keeps connections by default); none when the
    /// response has its own.
    private func connectionLine(for head: RenderedHead, _ exchange: Exchange?) -> [UInt8] {
        if head.connection != nil { return [] }
        if state.closesAfterAnswer { return Self.connectionClose }
        return exchange?.version == .http10 ? Self.connectionKeepAlive : []
    }

    private static let connectionClose = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)

    /// The reply that opens an answer whose body goes out later, in pieces (chunked or
    /// streamed): `head` with `Date` and `Connection`, then `body`, the first of its bytes.
    func openingReply(_ head: RenderedHead, _ exchange: Exchange, body: [UInt8] = []) -> WholeReply {
        if head.connection?.equalsIgnoringASCIICase("close") == true { state.closeAfterAnswer() }
        worker.date.refresh()
        let date = head.hasDate ? [] : worker.date.line
        return WholeReply(head: head.bytes, date: date, connection: connectionLine(for: head, exchange), body: body)
    }

    /// The head with `Transfer-Encoding: chunked`, then the body in `chunkSize` pieces, one every
    /// `interval` milliseconds, then the last chunk.
    private func sendChunked(_ response: HTTPResponse, _ exchange: Exchange, chunkSize: Int, interval: Int) {
        guard queue(openingReply(RenderedHead(response, framing: .chunked), exchange)) else {
            return finish(exchange, status: response.status, bytes: 0)
        }
        let body = response.body
        func send(from start: Int) {
            guard start < body.count else {
                write(ChunkedCoding.lastChunk)
                finish(exchange, status: response.status, bytes: body.count)
                answerFinished()
                return
            }
            let end = min(body.count, start + chunkSize)
            write(ChunkedCoding.chunk(body[start..<end]))
            if interval == 0 {
                send(from: end)
            } else {
                wait(
                    milliseconds: interval, then: { send(from: end) },
                    clientLeft: { self.finish(exchange, status: 0, bytes: start, note: "client gone") })
            }
        }
        send(from: 0)
    }

    private func perform(_ fault: Fault, on response: HTTPResponse, _ exchange: Exchange) {
        switch fault {
        case .hang:
            // Not in flight any more: a graceful stop need not wait for it. Held until the
            // client leaves, the hang limit passes or the server stops.
            finish(exchange, status: 0, bytes: 0, note: fault.rawValue)
            state.hold()
            wait(
                milliseconds: max(0, worker.configuration.hangLimitMilliseconds), then: { self.close() }, clientLeft: {}
            )
        case .reset:
            // RST instead of FIN: linger 0, then close.
            finish(exchange, status: 0, bytes: 0, note: fault.rawValue)
            reset()
        case .empty:
            finish(exchange, status: 0, bytes: 0, note: fault.rawValue)
            close()
        case .truncate, .malformedChunk, .randomThenClose:
            let bytes = FaultBytes.bytes(for: fault, of: response)
            state.closeAfterAnswer()
            write(bytes)
            finish(exchange, status: 0, bytes: bytes.count, note: fault.rawValue)
            answerFinished()
        }
    }

    func finish(_ exchange: Exchange, status: Int, bytes: Int, note: String? = nil) {
        worker.requestFinished()
        guard worker.logsRequests else { return }
        let logger = worker.logger
        let elapsed = Double(MonotonicClock.nanoseconds() - exchange.started) / 1_000_000
        let milliseconds = (elapsed * 100).rounded() / 100
        let outcome = note.map { "fault:\($0)" } ?? String(status)
        logger.info("\(exchange.method.rawValue) \(exchange.target) \(outcome) \(bytes)B \(milliseconds)ms")
    }
}
