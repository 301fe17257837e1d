import MockStackCore

extension HTTPConnection {
    /// Sends a streamed answer's head now and hands the connection to its body's handler, whose
    /// writes are the rest of the body (``Delivery/streamed(_:)``, docs/transport.md#streamed-bodies).
    /// The response's own body, if any, is the body's first bytes.
    ///
    /// HTTP/1.1 frames the body in chunks. HTTP/1.0 has no chunked coding (RFC 9112 §6.1): the
    /// head declares no length, says `Connection: close`, and the close ends the body. An answer
    /// that cannot have a body is sent whole and no handler is made: a status that forbids one,
    /// and the answer to HEAD, whose head is the one a GET would get.
    func beginStreamedBody(_ response: HTTPResponse, _ body: StreamedBody, _ exchange: Exchange) {
        guard !response.forbidsBody else { return sendWhole(response, exchange: exchange) }
        let chunked = exchange.version != .http10
        if !chunked, !exchange.isHead { state.closeAfterAnswer() }
        let head = RenderedHead(response, framing: chunked ? .chunked : .untilClose)
        guard !exchange.isHead else {
            write(openingReply(head, exchange))
            finish(exchange, status: response.status, bytes: 0)
            return answerFinished()
        }
        let opening = openingReply(head, exchange, body: chunked ? ChunkedCoding.chunk(response.body) : response.body)
        finish(exchange, status: response.status, bytes: response.body.count)
        openStream(opening, chunked: chunked, handoff: body.handoff)
    }
}
