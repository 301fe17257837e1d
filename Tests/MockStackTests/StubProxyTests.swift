import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackJSON
import MockStackTesting
import Testing
import TestSupport

/// A stub that answers by forwarding (`"proxyBaseUrl"`, WireMock's name), by the rules of
/// `--proxy-unmatched`, on a server that forwards nothing else.
@Suite(.timeLimit(.minutes(3)))
struct StubProxyTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(text).root }

    @Test func aProxyingStubForwardsItsRequestsAndTheJournalSaysSo() async throws {
        let upstream = try await ProxyTests.upstream()
        defer { upstream.stop() }
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["test"]))
        defer { mock.stop() }
        // Requests for /test/api/Hello… go to the upstream's own test app, the mount kept;
        // /legacy/… goes to its example app, the prefix taken off.
        _ = try await mock.stub(
            try MockStub(json: try parse(
                #"{"match": {"path": {"matches": "/test/api/Hello.*"}, "query": {"via": "up"}}, "answer": {"proxyBaseUrl": "\#(upstream.baseURL.absoluteString)"}}"#)))
        _ = try await mock.stub(
            try MockStub(json: try parse(
                #"{"match": {"pathPrefix": "/legacy/"}, "answer": {"proxyBaseUrl": "\#(upstream.baseURL.absoluteString)/example", "proxyUrlPrefixToRemove": "/legacy"}}"#)))

        let forwarded = try await ProxyTests.exchange(mock.ready.port, "GET /test/api/Hello?name=Up&via=up HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(forwarded.status == 200 && forwarded.text == #"{"result":"Hello, Up!"}"#, "\(forwarded.status) \(forwarded.text)")
        let local = try await ProxyTests.exchange(mock.ready.port, "GET /test/api/Hello?name=Here HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(local.text == #"{"result":"Hello, Here!"}"#, "\(local.status) \(local.text)")
        let legacy = try await ProxyTests.exchange(mock.ready.port, "GET /legacy/widgets HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(legacy.status == 200)
        let direct = try await ProxyTests.exchange(upstream.ready.port, "GET /example/widgets HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(legacy.text == direct.text)

        let sent = try await upstream.requests()
        #expect(sent.map(\.path) == ["/test/api/Hello", "/example/widgets", "/example/widgets"])
        #expect(sent.first?.query == "name=Up&via=up")
        let journal = try await mock.requests()
        #expect(journal.map(\.path) == ["/test/api/Hello", "/test/api/Hello", "/legacy/widgets"])
        #expect(journal[0].stub != nil && journal[0].json["proxied"] == true)
        #expect(journal[1].stub == nil && journal[1].json["proxied"] == nil)
        #expect(journal[2].stub != nil && journal[2].json["proxied"] == true)
        #expect(try await mock.stubs().map(\.hits) == [1, 1])
    }

    @Test func anUpstreamThatIsNotThereIsA502() async throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["test"]))
        defer { mock.stop() }
        _ = try await mock.stub(
            try MockStub(json: try parse(#"{"match": {"path": "/gone"}, "answer": {"proxyBaseUrl": "http://127.0.0.1:9"}}"#)))
        let answer = try await ProxyTests.exchange(mock.ready.port, "GET /gone HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(answer.status == 502)
        let body = try parse(answer.text)
        #expect(body["status"] == 502 && body["error"] == "Bad Gateway")
        #expect(body["message"]?.stringValue?.contains("http://127.0.0.1:9/gone") == true)
        let entry = try #require(try await mock.requests().last)
        #expect(entry.status == 502 && entry.stub != nil && entry.json["proxied"] == true)
    }

    @Test func aProxyingAnswerTakesNothingElse() async throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["test"]))
        defer { mock.stop() }
        for (answer, message) in [
            (#"{"proxyBaseUrl": "http://x", "status": 201}"#, "answer.status: not with proxyBaseUrl: the answer is what the upstream answers"),
            (#"{"proxyBaseUrl": "ftp://x"}"#, "answer.proxyBaseUrl: expected an http or https URL without a query (http://127.0.0.1:8080/base)"),
            (#"{"proxyUrlPrefixToRemove": "/x"}"#, "answer.proxyUrlPrefixToRemove: only with proxyBaseUrl"),
            (#"{"proxyBaseUrl": "http://x", "proxyUrlPrefixToRemove": "x"}"#, "answer.proxyUrlPrefixToRemove: expected a path (/test)"),
        ] {
            let body = #"{"match": {"path": "/p"}, "answer": \#(answer)}"#
            let sent = try await ProxyTests.exchange(
                mock.ready.port,
                "POST /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(sent.status == 400)
            #expect(try parse(sent.text)["message"]?.stringValue == "Invalid stub: " + message)
        }
        #expect(StubResponse.proxy(to: "http://x/b", removingPrefix: "/t").json == ["proxyBaseUrl": "http://x/b", "proxyUrlPrefixToRemove": "/t"])
        let definition = try StubDefinition(json: try parse(#"{"answer": {"proxyBaseUrl": "http://x/b", "proxyUrlPrefixToRemove": "/t"}}"#))
        #expect(definition.answer.json == ["proxyBaseUrl": "http://x/b", "proxyUrlPrefixToRemove": "/t"])
    }
}

/// The matchers added past WireMock's common set, through MockStackTesting's typed API against a
/// served mockstack: repeated values, dates against now, multipart parts.
@Suite(.timeLimit(.minutes(2)))
struct TypedMatcherEndToEndTests {
    @Test func repeatedValuesDatesAndPartsMatchOverTheWire() async throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["test"]))
        defer { mock.stop() }
        _ = try await mock.stub(
            RequestPattern(
                path: .equalTo("/test/api/Hello"),
                query: [.init("tag", .hasExactly(.equalTo("a"), .equalTo("b")))],
                headers: [.init("X-Sent", .after(try Moment("now -1 hours")))]),
            StubResponse(status: 418))
        _ = try await mock.stub(
            RequestPattern(parts: [.init(name: .equalTo("file"), fileName: .contains(".png"))]), StubResponse(status: 201))
        let session = URLSession(configuration: .ephemeral)
        func status(_ request: URLRequest) async throws -> Int {
            let (_, response) = try await session.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        let hello = try mock.url(for: "test").appendingPathComponent("api/Hello")
        var now = URLRequest(url: URL(string: hello.absoluteString + "?tag=b&tag=a")!)
        now.setValue(Date().formatted(Date.ISO8601FormatStyle()), forHTTPHeaderField: "X-Sent")
        #expect(try await status(now) == 418)
        var old = now
        old.setValue("Sun, 06 Nov 1994 08:49:37 GMT", forHTTPHeaderField: "X-Sent")
        #expect(try await status(old) == 200)

        var upload = URLRequest(url: hello)
        upload.httpMethod = "POST"
        upload.setValue("multipart/form-data; boundary=B", forHTTPHeaderField: "Content-Type")
        upload.httpBody = Data(
            "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nPNG\r\n--B--\r\n".utf8)
        #expect(try await status(upload) == 201)
        #expect(try await mock.stubs().map(\.hits) == [1, 1])
    }
}
