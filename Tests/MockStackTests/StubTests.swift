import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing

/// Runtime stubs and per-request faults of the control plane, over loopback.
@Suite(.timeLimit(.minutes(3)))
struct StubTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init() throws {
        mock = try InProcessMockStack.shipped()
        client = FeathersClient(mock)
    }

    @discardableResult
    private func stub(_ json: String) async throws -> JSONValue {
        let reply = try await client.send("POST", "/__mockstack/stubs", json: json)
        try #require(reply.status == 201, "\(reply.text)")
        return reply.json
    }

    @Test func aStubAnswersInsteadOfTheAppAndIsJournaled() async throws {
        let created = try await stub(#"{"match": {"method": "GET", "path": "/test/hello/World"}, "answer": {"status": 503, "body": {"error": "down"}, "headers": {"Retry-After": "1"}}}"#)
        #expect(created["id"] == "stub-1" && created["hits"] == 0)
        let reply = try await client.send("GET", "/test/hello/World")
        #expect(reply.status == 503 && reply.text == #"{"error":"down"}"# && reply.headers["retry-after"] == "1")
        #expect(reply.headers["content-type"] == "application/json; charset=utf-8")
        // Other requests still reach the app.
        #expect(try await client.send("GET", "/test/hello/Ann").json == ["result": "Hello, Ann!"])
        let journal = try await client.send("GET", "/__mockstack/requests").json["requests"]?.arrayValue
        #expect(journal?.first?["stub"] == "stub-1" && journal?.first?["status"] == 503 && journal?.last?["stub"] == .null)
        #expect(try await client.send("GET", "/__mockstack/stubs").json["stubs"]?.arrayValue?.first?["hits"] == 1)
    }

    @Test func aStubMatchesAServiceStackOperationByAnyRouteAndKeepsItInTheJournal() async throws {
        try await stub(#"{"match": {"operation": "Hello"}, "answer": {"status": 503}}"#)
        #expect(try await client.send("GET", "/test/hello/World").status == 503)
        #expect(try await client.send("POST", "/test/api/Hello", json: #"{"name": "Ann"}"#).status == 503)
        #expect(try await client.send("GET", "/test/api/GetItems").status == 200)
        let journal = try await client.send("GET", "/__mockstack/requests").json["requests"]?.arrayValue ?? []
        #expect(journal.map { $0["operation"] } == ["Hello", "Hello", "GetItems"])
        #expect(journal.map { $0["stub"] } == ["stub-1", "stub-1", .null])
    }

    @Test func aStubMatchesAFeathersServiceMethod() async throws {
        try await stub(#"{"match": {"operation": "people.create"}, "answer": {"status": 507}}"#)
        #expect(try await client.send("POST", "/feathers/people", json: #"{"name": "Ann"}"#).status == 507)
        #expect(try await client.send("GET", "/feathers/people").status == 200)
        let journal = try await client.send("GET", "/__mockstack/requests").json["requests"]?.arrayValue ?? []
        #expect(journal.map { $0["operation"] } == ["people.create", "people.find"])
    }

    @Test func serviceStackQueryNamesMatchInAnyCaseAsServiceStackBindsThem() async throws {
        try await stub(#"{"match": {"path": "/test/api/Hello", "query": {"name": "Ann"}}, "answer": {"status": 202}}"#)
        #expect(try await client.send("GET", "/test/api/Hello?NAME=Ann").status == 202)
        try await stub(#"{"match": {"path": "/feathers/people", "query": {"name": "x"}}, "answer": {"status": 202}}"#)
        #expect(try await client.send("GET", "/feathers/people?NAME=x").status != 202, "Feathers reads names as sent")
        #expect(try await client.send("GET", "/feathers/people?name=x").status == 202)
    }

    @Test func hitLimitsFailTheFirstCallsThenFallThrough() async throws {
        try await stub(#"{"match": {"path": "/test/hello/World"}, "answer": {"status": 500, "body": "boom"}, "times": 2}"#)
        #expect(try await client.send("GET", "/test/hello/World").status == 500)
        #expect(try await client.send("GET", "/test/hello/World").text == "boom")
        #expect(try await client.send("GET", "/test/hello/World").status == 200)
        let listed = try await client.send("GET", "/__mockstack/stubs").json["stubs"]?.arrayValue?.first
        #expect(listed?["hits"] == 2 && listed?["exhausted"] == true)
    }

    @Test func theLowestPriorityNumberThenTheNewestWins() async throws {
        try await stub(#"{"match": {"pathPrefix": "/example/"}, "answer": {"status": 201}, "priority": 1}"#)
        try await stub(#"{"match": {"pathPrefix": "/example/"}, "answer": {"status": 202}}"#)
        #expect(try await client.send("GET", "/example/hello").status == 201)
        try await stub(#"{"match": {"pathRegex": "/example/h.*"}, "answer": {"status": 203}, "priority": 1}"#)
        #expect(try await client.send("GET", "/example/hello").status == 203)
        // Without a priority a stub has 5: it loses to 1 and wins over 9.
        try await stub(#"{"match": {"path": "/example/widgets"}, "answer": {"status": 204}, "priority": 9}"#)
        try await stub(#"{"match": {"path": "/example/widgets"}, "answer": {"status": 205}}"#)
        #expect(try await client.send("GET", "/example/widgets").status == 201)
        let listed = try await client.send("GET", "/__mockstack/stubs").json["stubs"]?.arrayValue ?? []
        #expect(listed.map { $0["priority"] } == [1, 5, 1, 9, 5])
    }

    @Test func matchingOnQueryHeadersBodyAndApp() async throws {
        try await stub(#"{"match": {"app": "test", "query": {"name": "X"}, "headers": {"x-role": "admin"}}, "answer": {"status": 401}}"#)
        try await stub(#"{"match": {"body": {"name": "B"}}, "answer": {"status": 418}}"#)
        try await stub(#"{"match": {"bodyPointers": {"/user/id": 7}}, "answer": {"status": 409}}"#)
        #expect(try await client.send("GET", "/test/api/Hello?name=X", headers: ["X-Role": "admin"]).status == 401)
        #expect(try await client.send("GET", "/test/api/Hello?name=X").status == 200)
        #expect(try await client.send("POST", "/test/api/Hello", json: #"{"name": "B"}"#).status == 418)
        #expect(try await client.send("POST", "/test/api/Hello", json: #"{"name": "C", "user": {"id": 7}}"#).status == 409)
        #expect(try await client.send("POST", "/test/api/Hello", json: #"{"name": "C", "user": {"id": 8}}"#).status == 200)
    }

    @Test func templatesAndFiles() async throws {
        try await stub(#"{"match": {"path": "/test/echo"}, "answer": {"template": true, "body": {"you": "{{query.name}}", "id": "{{body/id}}", "via": "{{method}} {{path}}"}}}"#)
        let reply = try await client.send("POST", "/test/echo?name=Zoe", json: #"{"id": 42}"#)
        #expect(reply.text == #"{"you":"Zoe","id":42,"via":"POST /test/echo"}"#)
        try await stub(#"{"match": {"path": "/test/file"}, "answer": {"bodyFile": "example/hello.json"}}"#)
        #expect(try await client.send("GET", "/test/file").json == (try await client.send("GET", "/example/hello").json))
    }

    @Test func delaysAndFaults() async throws {
        try await stub(#"{"match": {"path": "/test/slow"}, "answer": {"delayMs": 150, "body": "late"}}"#)
        let start = Date()
        #expect(try await client.send("GET", "/test/slow").text == "late")
        #expect(Date().timeIntervalSince(start) >= 0.14)
        try await stub(#"{"match": {"path": "/test/reset"}, "answer": {"fault": "reset"}}"#)
        let reset = await #expect(throws: URLError.self) { try await client.send("GET", "/test/reset") }
        #expect(reset?.isFault("reset") == true, "\(String(describing: reset))")
        // Per request, by header: the app runs, the client sees the fault.
        let empty = await #expect(throws: URLError.self) {
            try await client.send("POST", "/feathers/people", json: #"{"name": "Ann"}"#, headers: ["X-MockStack-Fault": "empty"])
        }
        #expect(empty?.isFault("empty") == true, "\(String(describing: empty))")
        #expect(try await client.send("GET", "/feathers/people").json.names == ["Ann"])
        let started = Date()
        #expect(try await client.send("GET", "/example/hello", headers: ["X-MockStack-Delay": "120"]).status == 200)
        #expect(Date().timeIntervalSince(started) >= 0.11)
        // A stubbed answer honours the header too.
        try await stub(#"{"match": {"path": "/test/stubbed"}, "answer": {"body": "ok"}}"#)
        let stubbedReset = await #expect(throws: URLError.self) { try await client.send("GET", "/test/stubbed", headers: ["X-MockStack-Fault": "reset"]) }
        #expect(stubbedReset?.isFault("reset") == true, "\(String(describing: stubbedReset))")
        // The server is healthy after every fault.
        #expect(try await client.send("GET", "/__mockstack/health").status == 200)
    }

    @Test func nearMissesExplainAStubThatNeverMatched() async throws {
        _ = try await client.send("GET", "/test/hello/World")
        try await stub(#"{"match": {"method": "POST", "path": "/test/hello/World"}, "answer": {"status": 500}}"#)
        _ = try await client.send("GET", "/test/hello/World")
        let listed = try await client.send("GET", "/__mockstack/stubs").json["stubs"]?.arrayValue?.first
        #expect(listed?["nearMisses"]?.arrayValue?.first?["reason"] == "method GET is not POST")
        // A server-wide stub does not answer in a session, and says so in a test author's words.
        _ = try await client.send("POST", "/__session/my-test-1/test/hello/World")
        let reasons = try await client.send("GET", "/__mockstack/stubs").json["stubs"]?.arrayValue?.first?["nearMisses"]?
            .arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
        #expect(reasons.contains("sent in session my-test-1, not outside sessions"), "\(reasons)")
    }

    @Test func removingStubs() async throws {
        let first = try await stub(#"{"match": {"path": "/example/hello"}, "answer": {"status": 500}}"#)
        #expect(try await client.send("DELETE", "/__mockstack/stubs/\(first["id"]?.stringValue ?? "")").status == 204)
        #expect(try await client.send("DELETE", "/__mockstack/stubs/stub-99").status == 404)
        #expect(try await client.send("GET", "/example/hello").status == 200)
        try await stub(#"{"match": {"path": "/example/hello"}, "answer": {"status": 500}}"#)
        #expect(try await client.send("DELETE", "/__mockstack/stubs").status == 204)
        try await stub(#"{"match": {"path": "/example/hello"}, "answer": {"status": 500}}"#)
        _ = try await client.send("POST", "/__mockstack/reset")
        #expect(try await client.send("GET", "/__mockstack/stubs").json == ["stubs": []])
    }

    @Test(arguments: [
        ("{", "The stub is not JSON"),
        (#"{"match": {"colour": "red"}}"#, "match.colour: unknown field"),
        (#"{"match": {"pathRegex": "("}}"#, "match.pathRegex: missing ) for '(' at offset 0"),
        (#"{"answer": {"status": 99}}"#, "answer.status: expected a status from 200 to 599"),
        (#"{"match": {"method": "FETCH"}}"#, "match.method: 'FETCH' is not an HTTP method"),
        (#"{"times": 0}"#, "times: expected a whole number above 0"),
        (#"{"answer": {"bodyFile": "../etc/passwd"}}"#, "answer.bodyFile: '../etc/passwd' must be a relative path inside the folder"),
        (#"{"answer": {"bodyFile": "example/nothing.json"}}"#, "answer.bodyFile: no file 'example/nothing.json'"),
        ("[1]", "stub: expected an object"),
    ])
    func badStubsAre400sNamingTheField(_ body: String, _ message: String) async throws {
        let reply = try await client.send("POST", "/__mockstack/stubs", json: body)
        #expect(reply.status == 400)
        #expect(reply.json["message"]?.stringValue?.contains(message) == true, "\(reply.text)")
    }

    @Test func badFaultHeadersAre400s() async throws {
        #expect(try await client.send("GET", "/example/hello", headers: ["X-MockStack-Delay": "soon"]).json["message"]
            == "X-MockStack-Delay: expected milliseconds from 0 to 600000, or a range like 100-500, found 'soon'")
        #expect(try await client.send("GET", "/example/hello", headers: ["X-MockStack-Fault": "explode"]).status == 400)
    }
}
