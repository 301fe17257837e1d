import CLibevent
import MockStackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection on an HTTPS listener (docs/transport.md#tls). Everything above the bytes is
/// the plain connection's: the parser, the state, the deadlines, back-pressure, upgrades. What
/// differs is who moves the bytes: the OpenSSL bufferevent reads (and decrypts) into the input
/// and writes the output, so the plain connection's own socket reads and straight writes are
/// skipped, and the end of the client's stream arrives as a bufferevent event.
extension HTTPConnection {
    /// Starts the handshake and reading: the bufferevent calls back when decrypted bytes have
    /// joined the input, when the output has gone out, and when the connection ends.
    func startSecure() {
        bufferevent_setcb(
            bufferevent,
            { _, arg in
                HTTPConnection.with(arg) { $0.readable() }
            },
            { _, arg in
                HTTPConnection.with(arg) { $0.outputDrained() }
            },
            { _, events, arg in
                HTTPConnection.with(arg) { $0.happened(events) }
            }, Unmanaged.passUnretained(self).toOpaque())
        guard
            worker.logger.succeeded(
                bufferevent_enable(bufferevent, Int16(EV_WRITE)), "bufferevent_enable", "closing the new connection"),
            resumeReading()
        else { return close() }
    }

    /// Lets the bufferevent read (and decrypt) again. - Returns: false when it cannot.
    func resumeSecureReading() -> Bool {
        guard !state.isClosed else { return false }
        return worker.logger.succeeded(
            bufferevent_enable(bufferevent, Int16(EV_READ)), "bufferevent_enable", "closing the connection")
    }

    /// Stops the bufferevent reading; what it has decrypted stays in the input.
    func pauseSecureReading() {
        guard secure != nil, !state.isClosed else { return }
        worker.logger.succeeded(bufferevent_disable(bufferevent, Int16(EV_READ)), "bufferevent_disable")
    }

    /// Makes a small output one piece. The OpenSSL bufferevent encrypts each piece of its output
    /// as a TLS record of its own, written on its own: an answer's head and body, queued as
    /// pieces, would be two records and two writes where one of each does. A record holds 16 KiB,
    /// and a larger output is in pieces that large anyway.
    func joinForOneRecord(_ output: OpaquePointer) {
        guard evbuffer_get_length(output) <= Self.tlsRecordBytes else { return }
        _ = evbuffer_pullup(output, -1)
    }

    static let tlsRecordBytes = 16 * 1024

    /// The handshake finished, the client left, or TLS failed. libevent stops both reading and
    /// writing at a TLS connection's end, so any end is the whole connection's: there is no
    /// half-closed TLS connection to finish answering on.
    func secureEvent(_ events: Int16) {
        let ended = Int32(events) & (Int32(BEV_EVENT_EOF) | Int32(BEV_EVENT_ERROR)) != 0
        guard ended, let secure else { return }
        if Int32(events) & Int32(BEV_EVENT_ERROR) != 0, state.isReading, !state.isClosed,
            secure.context.sawPlainHTTP(on: bufferevent)
        {
            return refusePlainHTTP()
        }
        clientClosed(reset: true)
    }

    /// A plain HTTP request on the HTTPS port: answered in plain HTTP, as nginx does, then the
    /// socket lingers so that the rest of the request does not turn the close into a reset.
    private func refusePlainHTTP() {
        let status = 400
        let body = worker.errorBody(status, Self.plainHTTPMessage)
        worker.logRejection(status: status, bytes: body.count)
        let head = HTTPResponse.json(status, bytes: body, headers: ["Connection": "close"]).head
        worker.date.refresh()
        let reply = WholeReply(head: head.bytes, date: worker.date.line, connection: [], body: body)
        // The socket is empty and the reply small: it goes in one write, past OpenSSL.
        _ = reply.write(to: socket)
        state.requestRefused(lingers: true)
        _ = state.answerFinished()
        close()
    }

    static let plainHTTPMessage = "The plain HTTP request was sent to the HTTPS port"

    /// After the bufferevent is freed: the `SSL` goes, and the socket closes or lingers.
    func closeSecure(_ session: OpaquePointer, lingers: Bool) {
        secure?.context.ssl.SSL_free(session)
        if lingers { lingerOn(socket) } else { SystemCalls.close(socket) }
    }
}
