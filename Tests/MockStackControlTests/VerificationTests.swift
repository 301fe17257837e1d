import MockStackControl
import MockStackCore
import Testing

/// One pattern type for stubs and verification: what a stub's `match` takes, the journal's
/// `requests/count` and `requests/find` count and list.
@Suite struct VerificationTests {
    let harness = ControlHarness()

    private func stub(_ definition: JSONValue) {
        #expect(harness.send(.post, "/__mockstack/stubs", json: definition).status == 201)
    }

    @Test func headerPatternsContainIgnoreCaseAndRequireAbsence() {
        stub(["match": ["headers": ["x-env": ["contains": "STAG", "caseInsensitive": true], "X-Debug": ["absent": true]]],
              "answer": ["status": 418]])
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "eu-staging"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "eu-staging", "X-Debug": "1"]).status == 200)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "production"]).status == 200)
    }

    @Test func queryAndBodyPointerPatterns() {
        stub(["match": ["query": ["name": ["matches": "Ann[a-z]*"]], "bodyPointers": ["/user/email": ["contains": "@example."]]],
              "answer": ["status": 202]])
        #expect(harness.send(.post, "/test/api/Hello?name=Annie", json: ["user": ["email": "a@example.com"]]).status == 202)
        #expect(harness.send(.post, "/test/api/Hello?name=Bob", json: ["user": ["email": "a@example.com"]]).status == 200)
        #expect(harness.send(.post, "/test/api/Hello?name=Annie", json: ["user": ["email": "a@elsewhere.com"]]).status == 200)
        // A regex matches the whole value.
        #expect(harness.send(.post, "/test/api/Hello?name=Annie2", json: ["user": ["email": "a@example.com"]]).status == 200)
    }

    @Test func countAndFindUseTheSamePatterns() {
        harness.send(.post, "/test/api/Hello?name=Ann", json: ["name": "Ann"])
        harness.send(.post, "/test/api/Hello?name=Bob", json: ["name": "Bob"])
        harness.send(.get, "/feathers/messages")
        #expect(harness.json(.post, "/__mockstack/requests/count", ["method": "POST", "path": ["matches": "/test/.*"]]) == ["count": 2])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["bodyPointers": ["/name": "Bob"]]) == ["count": 1])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["query": ["name": ["absent": true]]]) == ["count": 1])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["pathPrefix": "/test/"]) == ["count": 2])
        #expect(harness.json(.post, "/__mockstack/requests/count", [:]) == ["count": 3])
        let found = harness.json(.post, "/__mockstack/requests/find", ["query": ["name": "Bob"]])["requests"]?.arrayValue ?? []
        #expect(found.map { $0["query"] } == ["name=Bob"])
    }

    @Test func aBadPatternIsA400NamingItsField() {
        let reply = harness.send(.post, "/__mockstack/requests/count", json: ["path": ["matches": "(a"]])
        #expect(reply.status == 400)
        #expect(harness.json(.post, "/__mockstack/requests/count", ["path": ["matches": "(a"]])
            == ["status": 400, "error": "Bad Request", "message": "Invalid pattern: path: missing ) for '(' at offset 0"])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["colour": "red"])["message"]
            == "Invalid pattern: colour: unknown field (expected one of and, app, basicAuth, body, bodyPointers, cookies, headers, method, not, operation, or, parts, path, pathPrefix, pathRegex, query, session)")
        #expect(harness.send(.get, "/__mockstack/requests/count").status == 405)
    }

    @Test func aSessionCountsItsOwnAndTheServerCountsEveryone() {
        harness.send(.get, "/__session/s1/test/api/Hello")
        harness.send(.get, "/test/api/Hello")
        #expect(harness.json(.post, "/__session/s1/__mockstack/requests/count", ["path": "/test/api/Hello"]) == ["count": 1])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["path": "/test/api/Hello"]) == ["count": 2])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["path": "/test/api/Hello", "session": "s1"]) == ["count": 1])
    }
}
