import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockStack
@testable import MockStackControl
import MockStackWire
import MockStackCore
import MockStackInProcess
import MockStackTesting
import MockStackTransport
import Testing
import TestSupport

/// A stub, however written, must not crash, stall or bloat the server, nor break
/// the framing of the connection it answers on; and a server-wide reset must leave sessions'
/// stubs alone.
@Suite(.timeLimit(.minutes(3)))
struct HostileStubTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init() throws {
        mock = try InProcessMockStack.shipped { $0.transport.threads = 2 }
        client = FeathersClient(mock)
    }

    @discardableResult
    private func stub(_ json: String, at prefix: String = "") async throws -> JSONValue {
        let reply = try await client.send("POST", prefix + "/__mockstack/stubs", json: json)
        try #require(reply.status == 201, "\(reply.text)")
        return reply.json
    }

    // MARK: Regular expressions

    /// `(a+)+b` takes a backtracking engine time exponential in the run of `a`s; on 10,000 the app answers.
    @Test func aPathologicalPathRegexCannotStallTheServer() async throws {
        try await stub(#"{"match": {"pathRegex": "/example/(a+)+b"}, "answer": {"status": 503}}"#)
        let long = try await client.send("GET", "/example/" + String(repeating: "a", count: 10_000))
        #expect(long.status == 404)
        #expect(try await client.send("GET", "/example/aaab").status == 503)
    }

    @Test(arguments: [
        (#"{"match": {"pathRegex": "/a/(\\d+)/\\1"}}"#, #"Invalid stub: match.pathRegex: '\1' at offset 9 is not supported (backreferences)"#),
        (#"{"match": {"pathRegex": "/a(?=b)"}}"#, "Invalid stub: match.pathRegex: '(?=' at offset 2 is not supported (lookaround)"),
        (#"{"match": {"pathRegex": "/a++"}}"#, "Invalid stub: match.pathRegex: '++' at offset 2 is not supported (possessive quantifiers)"),
        (#"{"match": {"pathRegex": "/a{1,5000}"}}"#, "Invalid stub: match.pathRegex: a repetition count above 1000 at offset 2"),
    ])
    func unsupportedPatternsAreRefusedByName(_ body: String, _ message: String) async throws {
        let reply = try await client.send("POST", "/__mockstack/stubs", json: body)
        #expect(reply.status == 400)
        #expect(reply.json == ["status": 400, "error": "Bad Request", "message": .string(message)])
    }

    /// Matching runs outside the store's lock; the hit is counted under the stub's own, so `times: 1`
    /// still answers exactly one of many concurrent requests.
    @Test func aStubWithTimesOneAnswersExactlyOnceUnderConcurrency() async throws {
        try await stub(#"{"match": {"pathRegex": "/example/h[a-z]+o"}, "answer": {"status": 503}, "times": 1}"#)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<24 { group.addTask { try await client.send("GET", "/example/hello").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 503 }.count == 1)
        #expect(statuses.filter { $0 == 200 }.count == 23)
    }

    // MARK: Templates

    @Test func aTemplateParsesTheBodyOnceHoweverManyPlaceholders() throws {
        let store = StubStore(files: nil)
        let stub = try store.add(try JSONParser().parse(#"{"answer": {"template": true, "body": "\#(String(repeating: "{{body/a}}", count: 5_000))"}}"#).root)
        let request = HTTPRequest(method: .post, target: "/x", body: Array(#"{"a": "x", "pad": "\#(String(repeating: "p", count: 1_000_000))"}"#.utf8))
        let subject = MatchedRequest(request, app: nil, session: nil)
        let json = subject.json
        // Both the matching of body criteria and the template share the one parse.
        let matches = try (0..<50).map { _ in try RequestMatcher(RequestPattern(bodyPointers: [.init("/a", .json("x"))]), field: "match") }
        var budget = PatternBudget()
        #expect(matches.allSatisfy { $0.mismatch(subject, within: &budget) == nil })
        let response = stub.answer.response(to: request, json: json, stub: stub.id, limit: StubAnswer.templateLimit, delivery: .immediate)
        #expect(response.status == 200)
        #expect(response.body == Array(String(repeating: "x", count: 5_000).utf8))
        #expect(json.parses == 1)
    }

    @Test func aTemplateThatWouldGrowPastTheLimitIsA500NamingTheStub() async throws {
        let placeholders = Array(repeating: #""{{body}}""#, count: 200).joined(separator: ",")
        let created = try await stub(#"{"match": {"path": "/test/echo"}, "answer": {"template": true, "body": [\#(placeholders)]}}"#)
        let body = #"{"pad":"\#(String(repeating: "p", count: 100_000))"}"#
        let reply = try await client.send("POST", "/test/echo", json: body)
        #expect(reply.status == 500)
        #expect(reply.json == ["status": 500, "error": "Internal Server Error",
                               "message": .string("Stub \(created["id"]?.stringValue ?? ""): its template: true answer would be larger than 16777216 bytes, the limit for a templated answer")])
        // Under the limit the same template answers in full.
        let small = try await client.send("POST", "/test/echo", json: #"{"pad":"p"}"#)
        #expect(small.status == 200)
        #expect(small.text == "[" + Array(repeating: #"{"pad":"p"}"#, count: 200).joined(separator: ",") + "]")
    }

    // MARK: Reset scopes

    @Test func aServerWideResetOfOneAppLeavesSessionsStubs() async throws {
        try await stub(#"{"match": {"app": "example", "path": "/example/hello"}, "answer": {"status": 500}}"#)
        try await stub(#"{"match": {"app": "example", "path": "/example/hello"}, "answer": {"status": 503}}"#, at: "/__session/beta")
        #expect(try await client.send("POST", "/__mockstack/reset?app=example").json == ["reset": ["example"]])
        #expect(try await client.send("GET", "/example/hello").status == 200)
        #expect(try await client.send("GET", "/__session/beta/example/hello").status == 503)
        // The server's `DELETE stubs` (all, or one app's) is the server's own too.
        try await stub(#"{"match": {"app": "example", "path": "/example/hello"}, "answer": {"status": 500}}"#)
        try await stub(#"{"match": {"app": "test", "path": "/test/hello/World"}, "answer": {"status": 500}}"#)
        #expect(try await client.send("DELETE", "/__mockstack/stubs?app=test").status == 204)
        #expect(try await client.send("GET", "/test/hello/World").status == 200)
        #expect(try await client.send("GET", "/example/hello").status == 500)
        #expect(try await client.send("DELETE", "/__mockstack/stubs?colour=red").json
            == ["status": 400, "error": "Bad Request", "message": "Unknown filter 'colour' (filters: app)"])
        #expect(try await client.send("DELETE", "/__mockstack/stubs").status == 204)
        #expect(try await client.send("GET", "/example/hello").status == 200)
        #expect(try await client.send("GET", "/__session/beta/example/hello").status == 503)
        // A session's reset of the app removes its own.
        _ = try await client.send("POST", "/__session/beta/__mockstack/reset?app=example")
        #expect(try await client.send("GET", "/__session/beta/example/hello").status == 200)
    }

    // MARK: Framing

    @Test(arguments: [
        (#"{"answer": {"status": 100}}"#, "Invalid stub: answer.status: expected a status from 200 to 599"),
        (#"{"answer": {"status": 101}}"#, "Invalid stub: answer.status: expected a status from 200 to 599"),
        (#"{"answer": {"headers": {"Content-Length": "3"}}}"#,
         "Invalid stub: answer.headers.Content-Length: Content-Length is the server's to set (it frames the answer on the connection); a stub or fixture may not set it"),
        (#"{"answer": {"headers": {"transfer-encoding": "chunked"}}}"#,
         "Invalid stub: answer.headers.transfer-encoding: transfer-encoding is the server's to set (it frames the answer on the connection); a stub or fixture may not set it"),
        (#"{"answer": {"headers": {"Connection": "close"}}}"#,
         "Invalid stub: answer.headers.Connection: Connection is the server's to set (it frames the answer on the connection); a stub or fixture may not set it"),
        (#"{"answer": {"status": 204, "body": "x"}}"#, "Invalid stub: answer.body: a 204 answer has no body (HTTP forbids one)"),
        (#"{"answer": {"status": 304, "bodyFile": "example/hello.json"}}"#, "Invalid stub: answer.bodyFile: a 304 answer has no body (HTTP forbids one)"),
    ])
    func answersThatWouldBreakFramingAreRefused(_ body: String, _ message: String) async throws {
        let reply = try await client.send("POST", "/__mockstack/stubs", json: body)
        #expect(reply.json == ["status": 400, "error": "Bad Request", "message": .string(message)])
    }

    // MARK: Header bytes: control characters and non-ASCII are refused at creation, naming the field

    @Test(arguments: [
        (#"{"answer": {"headers": {"X-Bytes": "a\u0001b"}}}"#, "the value of X-Bytes holds a control character (U+0001)"),
        (#"{"answer": {"headers": {"X-Bytes": "line\r\nX-Injected: 1"}}}"#, "the value of X-Bytes holds a control character (U+000D)"),
        (#"{"answer": {"headers": {"X-Bytes": "nul\u0000"}}}"#, "the value of X-Bytes holds a control character (U+0000)"),
        (#"{"answer": {"headers": {"X-Bytes": "del\u007f"}}}"#, "the value of X-Bytes holds a control character (U+007F)"),
        (#"{"answer": {"headers": {"X-Bytes": "caf\u00e9"}}}"#, "the value of X-Bytes holds a character outside ASCII (U+00E9)"),
        (#"{"answer": {"headers": {"X Bytes": "x"}}}"#, "'X Bytes' is not a header name (a token: letters, digits and !#$%&'*+-.^_`|~)"),
    ])
    func headerFieldsWithBytesAHeadCannotCarryAreRefusedByName(_ body: String, _ problem: String) async throws {
        let reply = try await client.send("POST", "/__mockstack/stubs", json: body)
        let field = body.contains("X Bytes") ? "X Bytes" : "X-Bytes"
        let message = "Invalid stub: answer.headers.\(field): \(problem)"
            + (problem.hasPrefix("the value") ? "; a header value may hold visible ASCII, spaces and tabs" : "")
        #expect(reply.json == ["status": 400, "error": "Bad Request", "message": .string(message)])
        #expect(try await client.send("GET", "/__mockstack/stubs").json["stubs"] == [])
    }

    @Test func aTabInAHeaderValueIsKeptAndSent() async throws {
        try await stub(#"{"match": {"path": "/example/tabbed"}, "answer": {"headers": {"X-Tabbed": "a\tb"}, "body": "t"}}"#)
        let answer = try await offThePool { [port = mock.ready.port] in try rawExchange(port: port, "GET /example/tabbed HTTP/1.1\r\nHost: t\r\n\r\n") }
        #expect(answer.status == 200)
        #expect(answer.header("X-Tabbed") == "a\tb")
    }

    /// After a stub's answer (GET, HEAD, a 204) the next request on the same keep-alive
    /// connection is read and answered as itself.
    @Test func aKeepAliveConnectionStaysInStepAfterStubAnswers() async throws {
        try await stub(#"{"match": {"path": "/example/stubbed"}, "answer": {"status": 202, "body": "stubbed", "headers": {"X-Stub": "yes"}}}"#)
        try await stub(#"{"match": {"path": "/example/none"}, "answer": {"status": 204}}"#)
        let connection = try RawConnection(port: mock.ready.port)
        let expected = try await client.send("GET", "/example/hello").text
        for (request, status, body) in [("GET /example/stubbed", 202, "stubbed"), ("GET /example/hello", 200, expected),
                                        ("HEAD /example/stubbed", 202, ""), ("GET /example/hello", 200, expected),
                                        ("GET /example/none", 204, ""), ("GET /example/stubbed", 202, "stubbed")] {
            try connection.send("\(request) HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try connection.readResponse(headOnly: request.hasPrefix("HEAD"))
            #expect(response.status == status, "\(request)")
            #expect(response.text == body, "\(request)")
            #expect(response.headers.filter { $0.0.lowercased() == "content-length" }.count == (status == 204 ? 0 : 1), "\(request)")
            #expect(response.header("Transfer-Encoding") == nil)
            if request.hasSuffix("stubbed") {
                #expect(response.header("X-Stub") == "yes")
                #expect(response.header("Content-Length") == "7")
            }
        }
    }
}
