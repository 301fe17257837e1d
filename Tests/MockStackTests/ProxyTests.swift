import Foundation
import MockStack
import MockStackCore
import Logging
import MockStackInProcess
@testable import MockStackProxy
import MockStackTransport
import Synchronization
import Testing
import TestSupport

/// `serve --proxy-unmatched`: a second mockstack over loopback is the upstream.
@Suite(.timeLimit(.minutes(3)))
struct ProxyTests {
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// The shipped apps, as the upstream.
    static func upstream() async throws -> InProcessMockStack {
        var configuration = MockStackConfiguration(fixtures: [fixtures], apps: ["example", "test"])
        configuration.logger.logLevel = .error
        let settings = configuration
        return try await offThePool { try InProcessMockStack(configuration: settings) }
    }

    /// A server with `apps` that forwards what they do not answer to `target`.
    static func proxy(to target: String, apps: [String] = ["example"], timeout: Int = 30,
                      libcurl: String = UpstreamClient.defaultLibrary) async throws -> InProcessMockStack {
        var configuration = MockStackConfiguration(fixtures: [fixtures], apps: apps)
        configuration.proxyUnmatched = try UpstreamTarget(parsing: target)
        configuration.proxyTimeoutSeconds = timeout
        configuration.proxyLibcurl = libcurl
        configuration.logger.logLevel = .critical
        let settings = configuration
        return try await offThePool { try InProcessMockStack(configuration: settings) }
    }

    /// One request on a fresh connection, its answer read off the test runner's threads.
    static func exchange(_ port: Int, _ request: String) async throws -> RawResponse {
        try await offThePool { try rawExchange(port: port, request) }
    }

    static func stop(_ servers: InProcessMockStack...) async throws {
        try await offThePool { for server in servers { server.stop() } }
    }

    static func journal(_ port: Int) async throws -> [JSONValue] {
        let answer = try await exchange(port, "GET /__mockstack/requests HTTP/1.1\r\nHost: t\r\n\r\n")
        return try JSONParser().parse(answer.body).root["requests"]?.arrayValue ?? []
    }

    @Test func whatNoAppAnswersIsForwardedAndJournaledAsProxied() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let proxy = try await Self.proxy(to: upstream.ready.url)
        defer { proxy.stop() }
        // /test is not mounted on the proxy: the upstream's test app answers.
        let hello = try await Self.exchange(proxy.ready.port, "GET /test/api/Hello?name=Proxy HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(hello.status == 200)
        #expect(hello.text == #"{"result":"Hello, Proxy!"}"#)
        #expect(hello.header("Content-Type") == "application/json; charset=utf-8")
        // The proxy's own app still answers itself.
        let own = try await Self.exchange(proxy.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(own.text == #"{"result":"Hello, World!"}"#)
        let entries = try await Self.journal(proxy.ready.port)
        #expect(entries.count == 2)
        #expect(entries.first?["path"] == "/test/api/Hello")
        #expect(entries.first?["proxied"] == true)
        #expect(entries.first?["unmatched"] == false)
        #expect(entries.first?["status"] == 200)
        #expect(entries.first?["response"]?["body"]?["text"] == #"{"result":"Hello, Proxy!"}"#)
        #expect(entries.last?["proxied"] == nil)
        // The upstream saw the request once, with its path and query.
        let seen = try await Self.journal(upstream.ready.port)
        #expect(seen.count == 1)
        #expect(seen.first?["query"] == "name=Proxy")
        let unmatched = try await Self.exchange(proxy.ready.port, "GET /__mockstack/requests/unmatched HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try JSONParser().parse(unmatched.body).root["requests"] == [])
    }

    @Test func anAppsOwnMissingRouteFallsThroughAndPostsKeepTheirBody() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        // The proxy's /example has no /widgets/7; a POST to the upstream's test app carries its body.
        let proxy = try await Self.proxy(to: upstream.ready.url)
        defer { proxy.stop() }
        let missing = try await Self.exchange(proxy.ready.port, "GET /example/widgets/7 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(missing.status == 404)
        #expect(missing.text.hasPrefix(#"{"status":404,"error":"Not Found","message":"No route /widgets/7 in app 'example'"#))
        #expect(try await Self.journal(upstream.ready.port).count == 1)
        let body = #"{"name":"Body"}"#
        let post = try await Self.exchange(proxy.ready.port, "POST /test/api/Hello HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(post.status == 200)
        #expect(post.text == #"{"result":"Hello, Body!"}"#)
    }

    @Test func anUnreachableUpstreamIsA502InTheControlPlanesFormat() async throws {
        // A port that was just free: nothing listens there.
        let gone = try await Self.upstream()
        let port = gone.ready.port
        gone.stop()
        let proxy = try await Self.proxy(to: "http://127.0.0.1:\(port)/base")
        defer { proxy.stop() }
        let answer = try await Self.exchange(proxy.ready.port, "GET /nothing/here?x=1 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(answer.status == 502)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
        #expect(answer.text == #"{"status":502,"error":"Bad Gateway","message":"Bad Gateway: the upstream http://127.0.0.1:\#(port)/base/nothing/here?x=1 refused the connection"}"#)
        let entries = try await Self.journal(proxy.ready.port)
        #expect(entries.first?["proxied"] == true)
        #expect(entries.first?["status"] == 502)
    }

    @Test func withoutLibcurlTheAppsAnswerAndForwardedRequestsAre502sSayingSo() async throws {
        let proxy = try await Self.proxy(to: "http://127.0.0.1:1", libcurl: "libcurl-missing.so.4")
        defer { proxy.stop() }
        let own = try await Self.exchange(proxy.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(own.text == #"{"result":"Hello, World!"}"#)
        let forwarded = try await Self.exchange(proxy.ready.port, "GET /elsewhere HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(forwarded.status == 502)
        #if os(Linux)
        #expect(forwarded.text == #"{"status":502,"error":"Bad Gateway","message":"Bad Gateway: the upstream http://127.0.0.1:1/elsewhere was not asked: libcurl (libcurl-missing.so.4) could not be loaded: install libcurl4"}"#)
        #endif
        let entries = try await Self.journal(proxy.ready.port)
        #expect(entries.last?["proxied"] == true)
        #expect(entries.last?["status"] == 502)
    }

    @Test func redirectsComeBackToTheClientWithTheirLocationUnderTheProxy() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let stub = #"{"match":{"path":"/test/moved"},"answer":{"status":302,"headers":{"Location":"\#(upstream.ready.url)/test/api/Hello"}}}"#
        let created = try await Self.exchange(upstream.ready.port, "POST /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nContent-Length: \(stub.utf8.count)\r\n\r\n\(stub)")
        #expect(created.status == 201)
        let proxy = try await Self.proxy(to: upstream.ready.url + "/test")
        defer { proxy.stop() }
        let moved = try await Self.exchange(proxy.ready.port, "GET /moved HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(moved.status == 302)
        // Not followed: the upstream saw one request; the Location is the proxy's path for it.
        #expect(moved.header("Location") == "/api/Hello")
        #expect(try await Self.journal(upstream.ready.port).count == 1)
    }

    @Test func anUpstreamSlowerThanTheTimeoutIsA502() async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let proxy = try await Self.proxy(to: upstream.ready.url, timeout: 1)
        defer { proxy.stop() }
        let slow = #"{"match":{"path":"/test/api/Slow"},"answer":{"status":200,"body":"late","delayMs":3000}}"#
        _ = try await Self.exchange(upstream.ready.port, "POST /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nContent-Length: \(slow.utf8.count)\r\n\r\n\(slow)")
        let late = try await Self.exchange(proxy.ready.port, "GET /test/api/Slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(late.status == 502)
        #expect(late.text.hasSuffix(#"/test/api/Slow did not answer within 1 s"}"#))
    }

    /// A stream after an upgrade that writes `bytes` and closes.
    final class SaysAndCloses: ByteStreamHandler {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func started(on stream: any ByteStream) {
            stream.write(bytes)
            stream.close()
        }
        func received(_ bytes: [UInt8]) {}
        func serverStopping() {}
        func streamEnded() {}
    }

    @Test(arguments: ["/../secret", "/x/../../secret", "/./../secret", "/%2e%2E/secret", "/a/./b", "/a/.."])
    func pathsWithDotSegmentsAreRefusedWithA400AndNeverSent(path: String) async throws {
        let upstream = try await Self.upstream()
        defer { upstream.stop() }
        let proxy = try await Self.proxy(to: upstream.ready.url + "/test")
        defer { proxy.stop() }
        let answer = try await Self.exchange(proxy.ready.port, "GET \(path)?x=1 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(answer.status == 400)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
        #expect(answer.text == #"{"status":400,"error":"Bad Request","message":"Bad Request: the upstream \#(upstream.ready.url)/test\#(path)?x=1 was not asked: the path has a '.' or '..' segment, which the proxy does not forward (it could leave the target's base path)"}"#)
        #expect(try await Self.journal(upstream.ready.port).isEmpty)
        let entries = try await Self.journal(proxy.ready.port)
        #expect(entries.first?["proxied"] == true)
        #expect(entries.first?["status"] == 400)
    }

    @Test func dotSegmentsAreTheWholeSegmentOnly() {
        for path in ["/../a", "/a/..", "/a/./b", "/.", "/%2E%2e/a", "/.%2e/a", "/%2e/a", "/a/%2e%2E"] {
            #expect(UpstreamTarget.hasDotSegment(path), "\(path)")
        }
        for path in ["/", "/a/b", "/..a/b", "/a../b", "/.../a", "/a.b", "/%2e%2e%2e/a", "/%2ea", "/%2", "/a/%2e%2"] {
            #expect(!UpstreamTarget.hasDotSegment(path), "\(path)")
        }
    }

    @Test func anUpstreamsInterimStatusIsA502AndThePipelinedNextRequestIsItsOwn() async throws {
        // A switch to another protocol, whose first bytes libcurl reads as the 101's body until the close.
        let upstream = try await ScriptedUpstream { _ in
            HTTPResponse(status: 101, headers: ["Upgrade": "hostile", "Connection": "Upgrade"],
                         delivery: .upgrade(ConnectionUpgrade { SaysAndCloses(Array("switched".utf8)) }))
        }
        let proxy = try await Self.proxy(to: upstream.url)
        let answers = try await offThePool { [port = proxy.ready.port] in
            let connection = try RawConnection(port: port)
            try connection.send("GET /upgrade HTTP/1.1\r\nHost: t\r\n\r\nGET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
            return try connection.readResponses(2)
        }
        try await Self.stop(proxy)
        try await upstream.stop()
        #expect(answers.map(\.status) == [502, 200])
        #expect(answers.first?.text == #"{"status":502,"error":"Bad Gateway","message":"Bad Gateway: the upstream \#(upstream.url)/upgrade answered 101 Switching Protocols, which is not a final answer the proxy can pass on"}"#)
        #expect(answers.last?.text == #"{"result":"Hello, World!"}"#)
        #expect(upstream.requests.map(\.path) == ["/upgrade"])
    }

    @Test func fieldsNamedInConnectionStayOnTheirOwnHopBothWays() async throws {
        let upstream = try await ScriptedUpstream { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders([
                .init(name: "Connection", value: "X-Internal,  x-other"), .init(name: "X-Internal", value: "upstream-secret"),
                .init(name: "X-Other", value: "o"), .init(name: "X-Kept", value: "k"), .init(name: "Content-Type", value: "text/plain"),
            ]), body: Array("ok".utf8))
        }
        let proxy = try await Self.proxy(to: upstream.url)
        let answer = try await Self.exchange(proxy.ready.port, "GET /named HTTP/1.1\r\nHost: t\r\nConnection: keep-alive, X-Secret\r\n"
            + "Connection: x-also\r\nX-Secret: client-secret\r\nX-Also: a\r\nX-Sent: s\r\n\r\n")
        try await Self.stop(proxy)
        try await upstream.stop()
        #expect(answer.status == 200)
        #expect(answer.text == "ok")
        #expect(answer.header("X-Internal") == nil)
        #expect(answer.header("X-Other") == nil)
        #expect(answer.header("X-Kept") == "k")
        #expect(answer.header("Connection") == nil)
        let sent = try #require(upstream.requests.first)
        #expect(sent.headers["X-Secret"] == nil)
        #expect(sent.headers["X-Also"] == nil)
        #expect(sent.headers["X-Sent"] == "s")
    }

    /// As values: the transport's own head drops such fields, so no upstream on it can send them
    /// (`make hostile`'s raw upstream does, end to end). libcurl refuses a NUL itself (a 502).
    @Test func controlBytesInAnUpstreamsFieldValuesBecomeSpaces() {
        let passed = ForwardedHeaders.downstream(HTTPHeaders([
            .init(name: "X-Delete", value: "a\u{7F}b"), .init(name: "X-Escape", value: "x\u{1B}[31my"), .init(name: "X-Tab", value: "a\tb"),
            .init(name: "X-Plain", value: "caf\u{E9}"),
        ]))
        #expect(passed.fields.map(\.name) == ["X-Delete", "X-Escape", "X-Tab", "X-Plain"])
        #expect(passed.fields.map(\.value) == ["a b", "x [31my", "a\tb", "caf\u{E9}"])
    }

    @Test func theFieldsConnectionNamesAreReadFromEveryConnectionField() {
        let headers = HTTPHeaders([.init(name: "Connection", value: " keep-alive ,X-One,,\tx-two "), .init(name: "connection", value: "X-Three")])
        #expect(ForwardedHeaders.connectionOptions(headers) == ["keep-alive", "x-one", "x-two", "x-three"])
        #expect(ForwardedHeaders.connectionOptions(["X-One": "1"]) == [])
    }

    @Test func anAnswerWithoutAContentTypeIsForwardedWithoutOne() async throws {
        let upstream = try await ScriptedUpstream { request in
            var response = HTTPResponse(status: 200, headers: request.path == "/typed" ? ["Content-Type": "text/csv"] : [:],
                                        body: Array("plain bytes".utf8))
            response.defaultsContentType = false
            return response
        }
        let proxy = try await Self.proxy(to: upstream.url)
        let untyped = try await Self.exchange(proxy.ready.port, "GET /untyped HTTP/1.1\r\nHost: t\r\n\r\n")
        let typed = try await Self.exchange(proxy.ready.port, "GET /typed HTTP/1.1\r\nHost: t\r\n\r\n")
        try await Self.stop(proxy)
        try await upstream.stop()
        #expect(untyped.status == 200)
        #expect(untyped.header("Content-Type") == nil)
        #expect(untyped.header("Content-Length") == "11")
        #expect(untyped.text == "plain bytes")
        #expect(typed.header("Content-Type") == "text/csv")
    }

    @Test func targetsThatAreNotHTTPURLsAreRefusedPlainly() {
        for (text, message) in [
            ("localhost:8080", "'localhost:8080' is not a URL (expected http://host[:port][/path])"),
            ("ftp://example.com", "'ftp://example.com': the scheme must be http or https, not ftp"),
            ("http://", "'http://' names no host (expected http://host[:port][/path])"),
            ("http://example.com/a?b=1", "'http://example.com/a?b=1': a target may not carry a query, a fragment or credentials"),
            ("not a url", "'not a url' is not a URL (expected http://host[:port][/path])"),
        ] {
            #expect(throws: UpstreamTargetError(message)) { _ = try UpstreamTarget(parsing: text) }
        }
        let target = try? UpstreamTarget(parsing: "https://api.example.com/v2/")
        #expect(target?.base == "https://api.example.com/v2")
        #expect(target?.proxied(location: "https://api.example.com/v2/items?page=2") == "/items?page=2")
        #expect(target?.proxied(location: "/v2/items") == "/items")
        #expect(target?.proxied(location: "/v1/items") == "/v1/items")
        #expect(target?.proxied(location: "https://elsewhere.example/v2/items") == "https://elsewhere.example/v2/items")
    }
}
