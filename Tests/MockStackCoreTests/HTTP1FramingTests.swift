import MockStackCore
import Testing

/// Body framing (RFC 9112 §6), the body limit, Expect, Connection and Upgrade.
@Suite struct HTTP1FramingTests {
    static func request(_ method: String, _ fields: [String], body: String = "", version: String = "HTTP/1.1") -> String {
        "\(method) /p \(version)\r\nHost: x\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n" + body
    }

    /// A POST.
    static func request(_ fields: [String], body: String = "", version: String = "HTTP/1.1") -> String {
        request("POST", fields, body: body, version: version)
    }

    @Test func readsAContentLengthBody() throws {
        let step = HTTP1Feed.parse(Self.request(["Content-Length: 5"], body: "hello"))
        #expect(step.head?.framing == .length(5))
        #expect(step.request?.body == Array("hello".utf8))
    }

    @Test func readsNoBodyWithoutFraming() throws {
        let text = Self.request([], body: "GET /next HTTP/1.1\r\n")
        let step = HTTP1Feed.parse(text)
        #expect(step.head?.framing == BodyFraming.none && step.request?.body == [])
        // The rest is the next request's, left unread.
        #expect(step.consumed == text.utf8.count - "GET /next HTTP/1.1\r\n".utf8.count)
    }

    @Test(arguments: [" 5", "5 ", "\t5\t", "005"])
    func takesContentLengthWithWhitespaceAroundIt(value: String) {
        #expect(HTTP1Feed.parse(Self.request(["Content-Length:" + value], body: "hello")).request?.body == Array("hello".utf8))
    }

    @Test func acceptsIdenticalContentLengths() {
        #expect(HTTP1Feed.parse(Self.request(["Content-Length: 5", "content-length: 5"], body: "hello")).request?.body == Array("hello".utf8))
    }

    @Test(arguments: [
        (["Content-Length: +5"], "Content-Length must be digits, found '+5'"),
        (["Content-Length: -1"], "Content-Length must be digits, found '-1'"),
        (["Content-Length: 5,5"], "Content-Length must be digits, found '5,5'"),
        (["Content-Length: 5 5"], "Content-Length must be digits, found '5 5'"),
        (["Content-Length: 0x10"], "Content-Length must be digits, found '0x10'"),
        (["Content-Length: 1e3"], "Content-Length must be digits, found '1e3'"),
        (["Content-Length: "], "Content-Length must be digits, found ''"),
        (["Content-Length: 5", "Content-Length: 3"], "two Content-Length headers disagree (5, 3)"),
        (["Content-Length: 5", "Content-Length: 05"], "two Content-Length headers disagree (5, 05)"),
        (["Transfer-Encoding: gzip"], "Transfer-Encoding 'gzip': only chunked is understood"),
        (["Transfer-Encoding: gzip, chunked"], "Transfer-Encoding 'gzip, chunked': only chunked is understood"),
        (["Transfer-Encoding: chunked, gzip"], "Transfer-Encoding 'chunked, gzip': only chunked is understood"),
        (["Transfer-Encoding: chunked, chunked"], "Transfer-Encoding 'chunked, chunked': only chunked is understood"),
        (["Transfer-Encoding: identity"], "Transfer-Encoding 'identity': only chunked is understood"),
        (["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"], "more than one Transfer-Encoding header"),
        (["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], "more than one Transfer-Encoding header"),
        (["Content-Length: 5", "Transfer-Encoding: chunked"], "Content-Length and Transfer-Encoding together"),
        (["Transfer-Encoding: chunked", "Content-Length: 0"], "Content-Length and Transfer-Encoding together"),
    ])
    func refusesAmbiguousFraming(fields: [String], problem: String) {
        #expect(HTTP1Feed.parse(Self.request(fields, body: "5\r\nhello\r\n0\r\n\r\n")).error == .badRequest(problem))
    }

    @Test func refusesTransferEncodingInHTTP10() {
        #expect(HTTP1Feed.parse(Self.request(["Transfer-Encoding: chunked"], body: "0\r\n\r\n", version: "HTTP/1.0")).error
            == .badRequest("Transfer-Encoding in an HTTP/1.0 request"))
    }

    @Test(arguments: [("HEAD", "Content-Length: 36"), ("TRACE", "Content-Length: 1"), ("HEAD", "Transfer-Encoding: chunked")])
    func refusesABodyOnHeadAndTrace(method: String, field: String) {
        #expect(HTTP1Feed.parse(Self.request(method, [field])).error == .badRequest("a \(method) request cannot carry a body here"))
    }

    @Test func acceptsAZeroLengthOnHead() {
        #expect(HTTP1Feed.parse(Self.request("HEAD", ["Content-Length: 0"])).request?.method == .head)
    }

    @Test func readsTheBodyOfAnUnknownMethod() {
        // Any method but HEAD and TRACE may carry a body; the app then answers the method.
        let step = HTTP1Feed.parse(Self.request("FOO", ["Content-Length: 3"], body: "abc"))
        #expect(step.request?.method == .unknown && step.request?.body == Array("abc".utf8))
    }

    @Test(arguments: ["17000000", "16777217", "99999999999999999999999"])
    func refusesADeclaredLengthOverTheLimitAtOnce(length: String) {
        // No body byte has come: the head alone is enough to refuse it.
        let text = Self.request(["Content-Length: " + length])
        let step = HTTP1Feed.parse(text)
        #expect(step.error == HTTP1ParseError(status: 413, message: "Request body is larger than the limit of 16777216 bytes"))
        #expect(step.consumed == text.utf8.count)
    }

    @Test func waitsForABodyOfExactlyTheLimit() {
        var parser = HTTP1RequestParser(limits: HTTP1Limits(maxBodyBytes: 10))
        let head = Array(Self.request(["Content-Length: 10"]).utf8)
        #expect(head.withUnsafeBytes { parser.parse($0) } == .needMore(consumed: head.count))
        #expect(parser.pendingHead?.framing == .length(10))
        let step = Array("0123456789".utf8).withUnsafeBytes { parser.parse($0) }
        #expect(step.request?.body == Array("0123456789".utf8) && step.consumed == 10)
        #expect(parser.pendingHead == nil)
    }

    @Test(arguments: ["100-continue", "100-Continue", " 100-CONTINUE "])
    func holdsTheHeadForAContinue(value: String) {
        var parser = HTTP1RequestParser()
        let head = Array(Self.request(["Content-Length: 2", "Expect: " + value]).utf8)
        #expect(head.withUnsafeBytes { parser.parse($0) } == .needMore(consumed: head.count))
        #expect(parser.pendingHead?.expectsContinue == true)
        #expect(Array("{}".utf8).withUnsafeBytes { parser.parse($0) }.head?.expectsContinue == true)
    }

    @Test func ignoresAContinueFromHTTP10() {
        #expect(HTTP1Feed.parse(Self.request(["Content-Length: 0", "Expect: 100-continue"], version: "HTTP/1.0")).head?.expectsContinue == false)
    }

    @Test(arguments: ["200-ok", "100-continue-please", "100-continue, foo", "\u{FF}"])
    func refusesOtherExpectations(value: String) {
        #expect(HTTP1Feed.parse(Self.request(["Content-Length: 2", "Expect: " + value], body: "{}")).error
            == HTTP1ParseError(status: 417, message: "Unsupported Expect header: only '100-continue' is understood"))
    }

    @Test(arguments: [
        ("HTTP/1.1", nil, true), ("HTTP/1.1", "close", false), ("HTTP/1.1", "Keep-Alive, CLOSE", false),
        ("HTTP/1.1", "keep-alive", true), ("HTTP/1.1", "closed", true),
        ("HTTP/1.0", nil, false), ("HTTP/1.0", "keep-alive", true), ("HTTP/1.0", "foo ,Keep-Alive", true),
        ("HTTP/1.0", "keep-alive, close", false),
    ] as [(String, String?, Bool)])
    func decidesKeepAlive(version: String, connection: String?, keepAlive: Bool) {
        let fields = connection.map { ["Connection: " + $0] } ?? []
        #expect(HTTP1Feed.parse(Self.request("GET", fields, version: version)).head?.keepAlive == keepAlive)
    }

    @Test func readsConnectionAcrossFields() {
        #expect(HTTP1Feed.parse(Self.request("GET", ["Connection: foo", "Connection: close"])).head?.keepAlive == false)
    }

    @Test(arguments: [
        (["Connection: Upgrade", "Upgrade: websocket"], "websocket"),
        (["Connection: keep-alive, upgrade", "Upgrade: websocket", "Upgrade: h2c"], "websocket, h2c"),
        (["Upgrade: websocket"], nil),
        (["Connection: upgrade"], nil),
    ] as [([String], String?)])
    func reportsAnUpgrade(fields: [String], upgrade: String?) {
        #expect(HTTP1Feed.parse(Self.request("GET", fields)).head?.upgrade == upgrade)
    }
}
