import Foundation
import MockStackControl
import MockStackCore
import MockStackWire
import Testing

/// `and`, `or` and `not` over string patterns and over whole request patterns, as WireMock
/// combines its matchers: read and written back, bounded in size, matched with reasons.
@Suite struct CombinedPatternTests {
    let harness = ControlHarness()

    @Test func stringPatternsCombineAndReadBackTheSame() throws {
        let text = #"{"headers": {"X-Env": {"or": ["prod", {"and": [{"contains": "stag"}, {"not": {"matches": ".*-old"}}]}]}}}"#
        let pattern = try RequestPattern(json: harness.parse(text), field: "match")
        #expect(pattern.headers == [.init("X-Env", .or(.equalTo("prod"), .and(.contains("stag"), .not(.matches(".*-old")))))])
        #expect(pattern.json == (try harness.parse(text)))
        #expect(pattern.headers[0].pattern.description == "one of ('prod', all of (containing 'stag', not matching /.*-old/))")
    }

    @Test func aCombinedStringPatternMatchesAsItSays() throws {
        try harness.stub(#"{"headers": {"X-Env": {"or": ["prod", {"and": [{"contains": "stag"}, {"not": {"matches": ".*-old"}}]}]}}}"#)
        try harness.stub(#"{"path": "/feathers/messages", "headers": {"Authorization": {"not": {"absent": true}}}}"#, status: 401)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "prod"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "staging"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "staging-old"]).status == 200)
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(harness.send(.get, "/feathers/messages", headers: ["Authorization": "Bearer x"]).status == 401)
        #expect(harness.send(.get, "/feathers/messages").status == 200)
    }

    @Test func wholeRequestPatternsCombine() throws {
        try harness.stub(#"{"method": "GET", "or": [{"path": "/test/api/Hello"}, {"pathPrefix": "/feathers/"}], "not": {"query": {"name": "Bob"}}}"#)
        #expect(harness.send(.get, "/test/api/Hello?name=Ann").status == 418)
        #expect(harness.send(.get, "/feathers/messages").status == 418)
        #expect(harness.send(.get, "/test/api/Hello?name=Bob").status == 200)
        #expect(harness.send(.get, "/test/api/Goodbye").status == 200)
        #expect(harness.send(.post, "/test/api/Hello").status == 200)
        let verified = harness.json(.post, "/__mockstack/requests/count", try harness.parse(#"{"and": [{"method": "GET"}, {"pathPrefix": "/test/"}]}"#))
        #expect(verified == ["count": 3])
    }

    @Test func theReasonsNameThePartThatMissed() throws {
        try harness.stub(#"{"and": [{"method": "POST"}, {"path": "/x"}]}"#)
        try harness.stub(#"{"or": [{"path": "/a"}, {"path": "/b"}]}"#)
        try harness.stub(#"{"not": [{"query": {"a": "2"}}, {"method": "GET"}]}"#)
        harness.send(.get, "/test/api/Hello")
        let reasons = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["nearMisses"]?.arrayValue?.first?["reason"] }
        #expect(reasons == [
            "and 0: method GET is not POST",
            "none of or matched (or 0: path /test/api/Hello is not '/a')",
            "not 1 matched",
        ])
    }

    @Test(arguments: [
        (#"{"headers": {"A": {"or": []}}}"#, "match.headers.A.or: expected a list of patterns"),
        (#"{"headers": {"A": {"and": ["x"], "caseInsensitive": true}}}"#, "match.headers.A.caseInsensitive: not with and (give it to the patterns inside)"),
        (#"{"headers": {"A": {"not": 5}}}"#, #"match.headers.A.not: expected a string or a pattern object ({"equalTo"|"contains"|"matches": "…"}, {"absent": true}, or {"and"|"or": […]}, {"not": …})"#),
        (#"{"or": {"path": "/x"}}"#, "match.or: expected a list of request patterns"),
        (#"{"and": [{"app": "test"}]}"#, "match.and.0: app and session belong to the whole pattern, not to a part of it"),
        (#"{"path": {"not": {"not": {"not": {"not": {"not": {"not": {"not": {"not": "x"}}}}}}}}}"#, "match.path.not.not.not.not.not.not.not.not: nested deeper than 8"),
    ])
    func mistakesNameTheirField(_ match: String, _ message: String) throws {
        let answer = harness.send(.post, "/__mockstack/stubs", json: try harness.parse(#"{"match": \#(match)}"#))
        #expect(answer.status == 400)
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == .string("Invalid stub: " + message))
    }

    @Test func aPatternHoldsAtMostSixtyFourParts() throws {
        let many = "[" + Array(repeating: #""x""#, count: 64).joined(separator: ",") + "]"
        let answer = harness.send(.post, "/__mockstack/stubs", json: try harness.parse(#"{"match": {"path": {"or": \#(many)}}}"#))
        #expect(answer.status == 400)
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == "Invalid stub: match.path.or.63: more than 64 patterns combined")
    }
}

/// `cookies` and `basicAuth` in a request pattern.
@Suite struct CookieAndCredentialPatternTests {
    let harness = ControlHarness()

    @Test func cookiesMatchByName() throws {
        let stub = try harness.parse(#"{"match": {"cookies": {"ss-id": {"matches": "[a-z0-9]+"}, "theme": {"absent": true}}}, "answer": {"status": 418}}"#)
        #expect(harness.send(.post, "/__mockstack/stubs", json: stub).status == 201)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["Cookie": "x=1; ss-id=abc123"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["Cookie": "ss-id=abc123; theme=dark"]).status == 200)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["Cookie": "ss-id=ABC"]).status == 200)
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["hits"] == 1)
        let pattern = try RequestPattern(json: harness.parse(#"{"cookies": {"a": "1"}}"#), field: "match")
        #expect(pattern.cookies == [.init("a", .equalTo("1"))] && pattern.json == ["cookies": ["a": "1"]])
    }

    @Test func basicCredentialsMatchTheirUserAndPassword() throws {
        let stub = try harness.parse(#"{"match": {"basicAuth": {"username": "admin", "password": {"contains": "s3"}}}, "answer": {"status": 418}}"#)
        #expect(harness.send(.post, "/__mockstack/stubs", json: stub).status == 201)
        func basic(_ credentials: String) -> HTTPHeaders { ["Authorization": "Basic " + Data(credentials.utf8).base64EncodedString()] }
        #expect(harness.send(.get, "/test/api/Goodbye", headers: basic("admin:xs3cret")).status == 418)
        harness.send(.get, "/test/api/Hello", headers: basic("admin:wrong"))
        harness.send(.get, "/test/api/Hello", headers: basic("guest:s3"))
        harness.send(.get, "/test/api/Hello")
        let misses = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["hits"]
        #expect(misses == 1)
        let pattern = RequestPattern(basicAuth: .init(username: .equalTo("admin")))
        #expect(pattern.json == ["basicAuth": ["username": "admin"]])
        #expect(try RequestPattern(json: pattern.json, field: "") == pattern)
    }

    @Test func theReasonsSayWhichCookieOrCredentialMissed() throws {
        for match in [#"{"cookies": {"a": "1"}}"#, #"{"basicAuth": {"username": "admin"}}"#, #"{"basicAuth": {"password": "pw"}}"#] {
            #expect(harness.send(.post, "/__mockstack/stubs", json: try harness.parse(#"{"match": \#(match)}"#)).status == 201)
        }
        harness.send(.get, "/test/api/Hello", headers: ["Cookie": "a=2", "Authorization": "Basic " + Data("guest:x".utf8).base64EncodedString()])
        let reasons = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["nearMisses"]?.arrayValue?.first?["reason"] }
        #expect(reasons == ["cookie a is '2', not '1'", "the Basic user is 'guest', not 'admin'", "the Basic password is not 'pw'"])
        harness.send(.get, "/test/api/Hello")
        let latest = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["nearMisses"]?.arrayValue?.first?["reason"] }
        #expect(latest == ["cookie a is absent, not '1'", "no Basic credentials were sent", "no Basic credentials were sent"])
    }

    @Test func aBasicAuthThatIsNotAnObjectIsA400() throws {
        let answer = harness.send(.post, "/__mockstack/stubs", json: try harness.parse(#"{"match": {"basicAuth": {"user": "x"}}}"#))
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == "Invalid stub: match.basicAuth.user: unknown field (expected one of password, username)")
    }
}
