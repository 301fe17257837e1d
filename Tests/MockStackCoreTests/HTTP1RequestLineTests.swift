import MockStackCore
import Testing

/// The request line (RFC 9112 §3): method, target forms, version, leading empty lines.
@Suite struct HTTP1RequestLineTests {
    static func request(_ line: String, host: Bool = true) -> String {
        line + "\r\n" + (host ? "Host: x\r\n" : "") + "\r\n"
    }

    @Test func readsAnOriginFormRequest() throws {
        let step = HTTP1Feed.parse(Self.request("GET /test/api/Hello?name=World HTTP/1.1"))
        let head = try #require(step.head)
        let request = try #require(step.request)
        #expect(head.version == .http11 && head.framing == .none && head.keepAlive && !head.expectsContinue && head.upgrade == nil)
        #expect(request == HTTPRequest(method: .get, target: "/test/api/Hello?name=World", headers: ["Host": "x"]))
        #expect(request.path == "/test/api/Hello" && request.query == "name=World")
        #expect(step.consumed == Self.request("GET /test/api/Hello?name=World HTTP/1.1").utf8.count)
    }

    @Test(arguments: [
        ("FOO / HTTP/1.1", HTTPMethod.unknown), ("get / HTTP/1.1", .unknown), ("PROPFIND / HTTP/1.1", .unknown),
        ("GETT / HTTP/1.1", .unknown), ("PATCH / HTTP/1.1", .patch), ("DELETE / HTTP/1.1", .delete), ("TRACE / HTTP/1.1", .trace),
    ])
    func mapsMethodTokens(line: String, method: HTTPMethod) {
        // An unknown token is not refused: the app answers it with 405.
        #expect(HTTP1Feed.parse(Self.request(line)).request?.method == method)
    }

    @Test(arguments: [("FOO / HTTP/1.1", "FOO"), ("get / HTTP/1.1", "get"), ("PURGE / HTTP/1.1", "PURGE"), ("GET / HTTP/1.1", "GET"),
                      ("UNKNOWN / HTTP/1.1", "UNKNOWN")])
    func keepsTheMethodAsSpelled(line: String, name: String) throws {
        // An app that names the verb in its answer (Feathers' "Method PURGE not allowed") reads it here.
        let request = try #require(HTTP1Feed.parse(Self.request(line)).request)
        #expect(request.methodName == name)
        #expect(request.routed(toMount: "/x").methodName == name)
        var copy = request
        copy.headers.add("X", "y")
        #expect(copy.methodName == name && copy != request)
    }

    @Test func aMethodNameSetsTheMethod() {
        var request = HTTPRequest(method: .get, target: "/")
        request.methodName = "PURGE"
        #expect(request.method == .unknown && request.methodName == "PURGE")
        #expect(request != HTTPRequest(method: .unknown, target: "/"))
        request.methodName = "POST"
        #expect(request.method == .post && request.methodName == "POST" && request == HTTPRequest(method: .post, target: "/"))
        request.methodName = "FOO"
        request.method = .delete
        #expect(request.methodName == "DELETE")
    }

    @Test(arguments: [
        ("GET  / HTTP/1.1", "the request line must be 'method target HTTP-version', found 'GET  / HTTP/1.1'"),
        ("GET / HTTP/1.1 extra", "the request line must be 'method target HTTP-version', found 'GET / HTTP/1.1 extra'"),
        (" GET / HTTP/1.1", "the request line must be 'method target HTTP-version', found ' GET / HTTP/1.1'"),
        ("GET\t/\tHTTP/1.1", "the request line must be 'method target HTTP-version', found 'GET\t/\tHTTP/1.1'"),
        ("GET /", "the request line must be 'method target HTTP-version', found 'GET /'"),
        ("GET / ", "the request line must be 'method target HTTP-version', found 'GET / '"),
        ("GARBAGE", "the request line must be 'method target HTTP-version', found 'GARBAGE'"),
        ("G@T / HTTP/1.1", "the method 'G@T' is not a token"),
        ("GET\u{7f} / HTTP/1.1", "the method 'GET\u{7f}' is not a token"),
        ("\u{0}GET / HTTP/1.1", "the method '\u{0}GET' is not a token"),
        ("GET / HTTP/1.x", "the HTTP version 'HTTP/1.x' is malformed (expected HTTP/1.1)"),
        ("GET / http/1.1", "the HTTP version 'http/1.1' is malformed (expected HTTP/1.1)"),
        ("GET / HTTP/01.1", "the HTTP version 'HTTP/01.1' is malformed (expected HTTP/1.1)"),
        ("GET / HTTP/1.1\u{0}", "the HTTP version 'HTTP/1.1\u{0}' is malformed (expected HTTP/1.1)"),
        ("GET / HTTP/3", "the HTTP version 'HTTP/3' is malformed (expected HTTP/1.1)"),
        ("GET /a\u{7f} HTTP/1.1", "the request target has a control character or a byte outside ASCII"),
        ("GET /a\u{1}b HTTP/1.1", "the request target has a control character or a byte outside ASCII"),
        ("GET /café HTTP/1.1", "the request target has a control character or a byte outside ASCII"),
        ("GET * HTTP/1.1", "the target '*' is only for OPTIONS"),
        ("GET example.com:443 HTTP/1.1", "the request target 'example.com:443' is neither a path ('/p?q'), an absolute URI ('http://host/p') nor '*'"),
        ("GET http:///p HTTP/1.1", "the request target 'http:///p' is neither a path ('/p?q'), an absolute URI ('http://host/p') nor '*'"),
        ("GET h2c+x://h/p HTTP/1.1", "the request target 'h2c+x://h/p' is neither a path ('/p?q'), an absolute URI ('http://host/p') nor '*'"),
        ("CONNECT / HTTP/1.1", "a CONNECT request's target must be host:port, found '/'"),
        ("CONNECT example.com HTTP/1.1", "a CONNECT request's target must be host:port, found 'example.com'"),
        ("CONNECT user@h:1 HTTP/1.1", "a CONNECT request's target must be host:port, found 'user@h:1'"),
    ])
    func refusesMalformedLines(line: String, problem: String) {
        #expect(HTTP1Feed.parse(Self.request(line)).error == .badRequest(problem))
    }

    @Test func quotesAtMost64BytesOfALine() {
        let line = "GET /" + String(repeating: "a", count: 100)
        #expect(HTTP1Feed.parse(Self.request(line)).error
            == .badRequest("the request line must be 'method target HTTP-version', found '\(line.prefix(64))…'"))
    }

    @Test(arguments: ["HTTP/2.0", "HTTP/9.9", "HTTP/0.9", "HTTP/1.2"])
    func answersOtherVersionsWith505(version: String) {
        #expect(HTTP1Feed.parse(Self.request("GET / " + version)).error
            == HTTP1ParseError(status: 505, message: "HTTP version '\(version)' is not supported: only HTTP/1.1 and HTTP/1.0 are"))
    }

    @Test func readsHTTP10WithoutHost() throws {
        let head = try #require(HTTP1Feed.parse(Self.request("GET / HTTP/1.0", host: false)).head)
        #expect(head.version == .http10 && !head.keepAlive)
    }

    @Test(arguments: [
        ("OPTIONS * HTTP/1.1", "*", "*", nil),
        ("GET http://h:1/p?q HTTP/1.1", "http://h:1/p?q", "/p", "q"),
        ("GET HTTPS://h HTTP/1.1", "HTTPS://h", "/", nil),
        ("CONNECT example.com:443 HTTP/1.1", "example.com:443", "example.com:443", nil),
        ("CONNECT [::1]:8080 HTTP/1.1", "[::1]:8080", "[::1]:8080", nil),
        ("GET /a?b=%20c&d HTTP/1.1", "/a?b=%20c&d", "/a", "b=%20c&d"),
    ] as [(String, String, String, String?)])
    func acceptsEachTargetForm(line: String, target: String, path: String, query: String?) throws {
        let request = try #require(HTTP1Feed.parse(Self.request(line)).request)
        #expect(request.target == target && request.path == path && request.query == query)
    }

    @Test func skipsEmptyLinesBeforeTheRequestLine() throws {
        let step = HTTP1Feed.parse("\r\n\n\r\n" + Self.request("GET /a HTTP/1.1"))
        #expect(step.request?.target == "/a")
    }

    @Test func countsLeadingEmptyLinesTowardTheHeadLimit() {
        let limits = HTTP1Limits(maxHeadBytes: 100)
        let within = String(repeating: "\r\n", count: 30) + Self.request("GET / HTTP/1.1")  // 60 + 27 bytes
        #expect(HTTP1Feed.parse(within, limits: limits).head != nil)
        let past = String(repeating: "\r\n", count: 51)
        #expect(HTTP1Feed.parse(past, limits: limits).error
            == HTTP1ParseError(status: 431, message: "Request line and headers are larger than the limit of 100 bytes"))
    }

    /// Empty lines before a request line are skipped, but they start the request's deadline:
    /// a client sending nothing else must not keep its connection for ever.
    @Test func anEmptyLineStartsARequest() {
        var parser = HTTP1RequestParser()
        #expect(!parser.isMidRequest)
        #expect(parser.parse(Array("\r".utf8)) == .needMore(consumed: 1))
        #expect(parser.isMidRequest)
        #expect(parser.parse(Array("\n\r\n".utf8)) == .needMore(consumed: 3))
        #expect(parser.isMidRequest)
        let step = parser.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(step.request?.target == "/")
        #expect(!parser.isMidRequest)
    }

    @Test func refusesARequestLineOverTheHeadLimit() {
        let line = "GET /?q=" + String(repeating: "x", count: 40_000) + " HTTP/1.1"
        #expect(HTTP1Feed.parse(Self.request(line)).error
            == HTTP1ParseError(status: 431, message: "Request line and headers are larger than the limit of 32768 bytes"))
    }
}
