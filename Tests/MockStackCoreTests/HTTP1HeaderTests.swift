import MockStackCore
import Testing

/// Header fields (RFC 9112 §5), line ends, Host, and the head's limits.
@Suite struct HTTP1HeaderTests {
    static func request(_ fields: [String], version: String = "HTTP/1.1") -> String {
        "GET / \(version)\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    @Test(arguments: [
        (["Host: x", "Host : y"], "the header name 'Host ' has a character a token cannot (a space before the colon?)"),
        (["Host: x", "X(A): y"], "the header name 'X(A)' has a character a token cannot (a space before the colon?)"),
        (["Host: x", ": value"], "a header has an empty name"),
        (["Host x"], "the header line 'Host x' has no colon"),
        (["Host: x", " folded"], "a header line starts with a space or tab (obs-fold is not accepted)"),
        (["Host: x", "X-A: a", "\tb"], "a header line starts with a space or tab (obs-fold is not accepted)"),
        (["Host: x", "    "], "a header line starts with a space or tab (obs-fold is not accepted)"),
        (["Host: x", "X-A: a\u{0}b"], "the value of the header 'X-A' has a control character"),
        (["Host: x", "X-A: a\u{1b}b"], "the value of the header 'X-A' has a control character"),
        (["Host: x", "X-A: a\u{7f}"], "the value of the header 'X-A' has a control character"),
        (["Host: x", "X-A: a\rb"], "a CR that is not followed by LF"),
        (["Host: x\r"], "a CR that is not followed by LF"),
        ([], "an HTTP/1.1 request must have a Host header"),
        (["Host: x", "host: y"], "more than one Host header"),
    ])
    func refusesMalformedFields(fields: [String], problem: String) {
        #expect(HTTP1Feed.parse(Self.request(fields)).error == .badRequest(problem))
    }

    @Test func refusesABareCRInTheRequestLine() {
        #expect(HTTP1Feed.parse("GET / HTTP/1.1\rHost: x\r\n\r\n").error == .badRequest("a CR that is not followed by LF"))
    }

    @Test func refusesTwoHostsInHTTP10Too() {
        #expect(HTTP1Feed.parse(Self.request(["Host: a", "Host: a"], version: "HTTP/1.0")).error == .badRequest("more than one Host header"))
    }

    @Test func keepsFieldsInOrderWithTheirWhitespaceTrimmed() throws {
        let request = try #require(HTTP1Feed.parse(Self.request(["Host: x", "X-A:1", "x-a: \t 2 \t", "X-Empty:", "X-Inner: a  b\tc"])).request)
        #expect(request.headers.fields == [
            .init(name: "Host", value: "x"), .init(name: "X-A", value: "1"), .init(name: "x-a", value: "2"),
            .init(name: "X-Empty", value: ""), .init(name: "X-Inner", value: "a  b\tc"),
        ])
    }

    @Test func decodesValuesAsUTF8ReplacingWhatIsNot() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Name: café ".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\r\n\r\n".utf8)
        let request = try #require(HTTP1Feed.parse(bytes).request)
        #expect(request.headers["X-Name"] == "café \u{FFFD}\u{FFFD}")
    }

    @Test func takesABareLFForALineEnd() throws {
        let request = try #require(HTTP1Feed.parse("GET /a HTTP/1.1\nHost: x\nX-A: 1\r\n\n").request)
        #expect(request.target == "/a" && request.headers["X-A"] == "1")
    }

    @Test func acceptsAHeadOfExactlyTheLimitAndNotOneByteMore() {
        let fixed = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: \r\n\r\n".utf8.count
        let limits = HTTP1Limits(maxHeadBytes: 200)
        let exact = Self.request(["Host: x", "X-Pad: " + String(repeating: "p", count: 200 - fixed)])
        #expect(exact.utf8.count == 200)
        #expect(HTTP1Feed.parse(exact, limits: limits).head != nil)
        let over = Self.request(["Host: x", "X-Pad: " + String(repeating: "p", count: 201 - fixed)])
        #expect(HTTP1Feed.parse(over, limits: limits).error
            == HTTP1ParseError(status: 431, message: "Request line and headers are larger than the limit of 200 bytes"))
    }

    @Test func refusesAHugeHeaderBeforeItEnds() {
        // 431 as soon as the limit passes, without waiting for the line's end.
        let step = HTTP1Feed.parse("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 40_000))
        #expect(step.error == HTTP1ParseError(status: 431, message: "Request line and headers are larger than the limit of 32768 bytes"))
    }

    @Test func acceptsTheMostFieldsAndNotOneMore() {
        let limits = HTTP1Limits(maxHeaderCount: 5)
        let five = ["Host: x"] + (1...4).map { "X-\($0): v" }
        #expect(HTTP1Feed.parse(Self.request(five), limits: limits).request?.headers.count == 5)
        #expect(HTTP1Feed.parse(Self.request(five + ["X-6: v"]), limits: limits).error
            == HTTP1ParseError(status: 431, message: "Request has more header fields than the limit of 5"))
    }

    @Test func refusesThreeThousandSmallHeaders() {
        let fields = ["Host: x"] + Array(repeating: "X-Many: 1234567890", count: 3000)
        #expect(HTTP1Feed.parse(Self.request(fields)).error
            == HTTP1ParseError(status: 431, message: "Request has more header fields than the limit of 100"))
    }

    @Test func waitsForTheWholeHead() {
        var parser = HTTP1RequestParser()
        #expect(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8).withUnsafeBytes { parser.parse($0) } == .needMore(consumed: 25))
        #expect(parser.isMidRequest && parser.pendingHead == nil)
        let step = Array("\r\n".utf8).withUnsafeBytes { parser.parse($0) }
        #expect(step.request?.target == "/" && step.consumed == 2)
        #expect(!parser.isMidRequest)
    }
}
