import Foundation
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
        #expect(answer.text.contains("http://127.0.0.1:9/gone"))
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
