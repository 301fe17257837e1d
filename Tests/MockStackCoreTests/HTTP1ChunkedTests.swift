import MockStackCore
import Testing

/// Chunked bodies (RFC 9112 §7.1): sizes, extensions, line ends, trailers and the body limit.
@Suite struct HTTP1ChunkedTests {
    static func request(_ body: String) -> String {
        "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body
    }

    @Test(arguments: [
        ("5\r\nhello\r\n0\r\n\r\n", "hello"),
        ("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world"),
        ("A\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        ("a\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        ("0\r\n\r\n", ""),
        ("000\r\n\r\n", ""),
        ("0005\r\nhello\r\n0\r\n\r\n", "hello"),
        ("10;foo=bar\r\n0123456789abcdef\r\n0\r\n\r\n", "0123456789abcdef"),
        ("5;a=\"q\\\"x\"\r\nhello\r\n0;last\r\n\r\n", "hello"),
        ("5 ; a=b\r\nhello\r\n0\r\n\r\n", "hello"),
        ("5\t;a\r\nhello\r\n0\r\n\r\n", "hello"),
        ("5 \r\nhello\r\n0\r\n\r\n", "hello"),
        ("5\nhello\n0\n\n", "hello"),
        ("5\r\nhe\r\nl\r\n0\r\n\r\n", "he\r\nl"),
    ])
    func joinsTheChunks(body: String, decoded: String) throws {
        let step = HTTP1Feed.parse(Self.request(body))
        let head = try #require(step.head)
        #expect(head.framing == .chunked)
        #expect(step.request?.body == Array(decoded.utf8))
        #expect(step.consumed == Self.request(body).utf8.count)
    }

    @Test(arguments: [
        ("zz\r\nhello\r\n0\r\n\r\n", "a chunk size must be hexadecimal digits, found 'zz'"),
        ("-5\r\nhello\r\n0\r\n\r\n", "a chunk size must be hexadecimal digits, found '-5'"),
        (" 5\r\nhello\r\n0\r\n\r\n", "a chunk size must be hexadecimal digits, found ' 5'"),
        ("g\r\nhello\r\n0\r\n\r\n", "a chunk size must be hexadecimal digits, found 'g'"),
        (";a\r\nhello\r\n0\r\n\r\n", "a chunk size must be hexadecimal digits, found ';a'"),
        ("\r\nhello\r\n0\r\n\r\n", "a chunk size line is empty"),
        ("0x5\r\nhello\r\n0\r\n\r\n", "unexpected 'x5' after the chunk size"),
        ("5 5\r\nhello\r\n0\r\n\r\n", "unexpected '5' after the chunk size"),
        ("5,a\r\nhello\r\n0\r\n\r\n", "unexpected ',a' after the chunk size"),
        ("5;\u{0}\r\nhello\r\n0\r\n\r\n", "a chunk extension has a control character"),
        ("5;a=\u{7f}\r\nhello\r\n0\r\n\r\n", "a chunk extension has a control character"),
        ("00000000000000005\r\nhello\r\n0\r\n\r\n", "a chunk size has more than 16 hexadecimal digits"),
        ("5\r\nhelloX\r\n0\r\n\r\n", "chunk data is not followed by CRLF"),
        ("5\r\nhello\r\r\n0\r\n\r\n", "chunk data is not followed by CRLF"),
        ("5\r\nhello\r\n\r\n0\r\n\r\n", "a chunk size line is empty"),
    ])
    func refusesMalformedChunks(body: String, problem: String) {
        #expect(HTTP1Feed.parse(Self.request(body)).error == .badChunk(problem))
    }

    @Test func refusesABareCRInASizeLine() {
        #expect(HTTP1Feed.parse(Self.request("5\rx\r\nhello\r\n0\r\n\r\n")).error == .badRequest("a CR that is not followed by LF"))
    }

    @Test func boundsTheExtensions() {
        let within = "5;" + String(repeating: "e", count: 4096 - 4) + "\r\nhello\r\n0\r\n\r\n"
        #expect(HTTP1Feed.parse(Self.request(within)).request?.body == Array("hello".utf8))
        let past = "5;" + String(repeating: "e", count: 4096 - 3) + "\r\nhello\r\n0\r\n\r\n"
        #expect(HTTP1Feed.parse(Self.request(past)).error == .badChunk("a chunk size line is longer than 4096 bytes"))
    }

    @Test(arguments: ["ffffffffffffffffffff", "7fffffffffffffff", "ffffffffffffffff", "1000001"])
    func refusesAHugeChunkSizeWithoutTrapping(size: String) {
        #expect(HTTP1Feed.parse(Self.request(size + "\r\nhello\r\n0\r\n\r\n")).error
            == HTTP1ParseError(status: 413, message: "Request body is larger than the limit of 16777216 bytes"))
    }

    @Test func refusesTheChunkThatTakesTheTotalPastTheLimitBeforeItsData() {
        let limits = HTTP1Limits(maxBodyBytes: 10)
        let upToTheSecondSize = Self.request("6\r\nabcdef\r\n5\r\n")
        let step = HTTP1Feed.parse(Array(upToTheSecondSize.utf8), limits: limits)
        #expect(step.error == HTTP1ParseError(status: 413, message: "Request body is larger than the limit of 10 bytes"))
        #expect(HTTP1Feed.parse(Self.request("6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n"), limits: limits).request?.body.count == 10)
    }

    @Test func checksCountsAndDropsTrailers() throws {
        let step = HTTP1Feed.parse(Self.request("5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\n\r\n"))
        let request = try #require(step.request)
        #expect(request.body == Array("hello".utf8))
        #expect(request.headers == ["Host": "x", "Transfer-Encoding": "chunked"])
    }

    @Test(arguments: [
        ("X T: 1", "the header name 'X T' has a character a token cannot (a space before the colon?)"),
        (" folded", "a header line starts with a space or tab (obs-fold is not accepted)"),
        ("X-T: a\u{0}", "the value of the header 'X-T' has a control character"),
        ("no colon", "the header line 'no colon' has no colon"),
    ])
    func refusesMalformedTrailers(trailer: String, problem: String) {
        #expect(HTTP1Feed.parse(Self.request("0\r\n" + trailer + "\r\n\r\n")).error == .badRequest(problem))
    }

    @Test func countsTrailersTowardTheHeadLimits() {
        let head = Self.request("").utf8.count
        let bytes = HTTP1Limits(maxHeadBytes: head + 20)
        #expect(HTTP1Feed.parse(Self.request("0\r\nX-T: " + String(repeating: "t", count: 20) + "\r\n\r\n"), limits: bytes).error
            == HTTP1ParseError(status: 431, message: "Request line and headers are larger than the limit of \(head + 20) bytes"))
        let fields = HTTP1Limits(maxHeaderCount: 3)  // Host and Transfer-Encoding, then one trailer
        #expect(HTTP1Feed.parse(Self.request("0\r\nX-1: a\r\n\r\n"), limits: fields).request != nil)
        #expect(HTTP1Feed.parse(Self.request("0\r\nX-1: a\r\nX-2: b\r\n\r\n"), limits: fields).error
            == HTTP1ParseError(status: 431, message: "Request has more header fields than the limit of 3"))
    }

    @Test func holdsTheHeadWhileChunksArrive() {
        var parser = HTTP1RequestParser()
        let head = Array(Self.request("5\r\nhel").utf8)
        #expect(head.withUnsafeBytes { parser.parse($0) } == .needMore(consumed: head.count))
        #expect(parser.pendingHead?.framing == .chunked && parser.isMidRequest)
        let rest = Array("lo\r\n0\r\n\r\nGET".utf8)
        let step = rest.withUnsafeBytes { parser.parse($0) }
        #expect(step.request?.body == Array("hello".utf8) && step.consumed == rest.count - 3)
    }
}
