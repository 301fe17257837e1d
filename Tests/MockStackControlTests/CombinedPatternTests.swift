import MockStackControl
import MockStackCore
import MockStackWire
import Testing

/// `and`, `or` and `not` over string patterns and over whole request patterns, as WireMock
/// combines its matchers: read and written back, bounded in size, matched with reasons.
@Suite struct CombinedPatternTests {
    let harness = ControlHarness()

    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)).root }

    private func stub(_ match: String, status: Int = 418) throws {
        let json = try parse(#"{"match": \#(match), "answer": {"status": \#(status)}}"#)
        let answer = harness.send(.post, "/__mockstack/stubs", json: json)
        try #require(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test func stringPatternsCombineAndReadBackTheSame() throws {
        let text = #"{"headers": {"X-Env": {"or": ["prod", {"and": [{"contains": "stag"}, {"not": {"matches": ".*-old"}}]}]}}}"#
        let pattern = try RequestPattern(json: parse(text), field: "match")
        #expect(pattern.headers == [.init("X-Env", .or(.equalTo("prod"), .and(.contains("stag"), .not(.matches(".*-old")))))])
        #expect(pattern.json == (try parse(text)))
        #expect(pattern.headers[0].pattern.description == "one of ('prod', all of (containing 'stag', not matching /.*-old/))")
    }

    @Test func aCombinedStringPatternMatchesAsItSays() throws {
        try stub(#"{"headers": {"X-Env": {"or": ["prod", {"and": [{"contains": "stag"}, {"not": {"matches": ".*-old"}}]}]}}}"#)
        try stub(#"{"path": "/feathers/messages", "headers": {"Authorization": {"not": {"absent": true}}}}"#, status: 401)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "prod"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "staging"]).status == 418)
        #expect(harness.send(.get, "/test/api/Hello", headers: ["X-Env": "staging-old"]).status == 200)
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(harness.send(.get, "/feathers/messages", headers: ["Authorization": "Bearer x"]).status == 401)
        #expect(harness.send(.get, "/feathers/messages").status == 200)
    }

    @Test func wholeRequestPatternsCombine() throws {
        try stub(#"{"method": "GET", "or": [{"path": "/test/api/Hello"}, {"pathPrefix": "/feathers/"}], "not": {"query": {"name": "Bob"}}}"#)
        #expect(harness.send(.get, "/test/api/Hello?name=Ann").status == 418)
        #expect(harness.send(.get, "/feathers/messages").status == 418)
        #expect(harness.send(.get, "/test/api/Hello?name=Bob").status == 200)
        #expect(harness.send(.get, "/test/api/Goodbye").status == 200)
        #expect(harness.send(.post, "/test/api/Hello").status == 200)
        let verified = harness.json(.post, "/__mockstack/requests/count", try parse(#"{"and": [{"method": "GET"}, {"pathPrefix": "/test/"}]}"#))
        #expect(verified == ["count": 3])
    }

    @Test func theReasonsNameThePartThatMissed() throws {
        try stub(#"{"and": [{"method": "POST"}, {"path": "/x"}]}"#)
        try stub(#"{"or": [{"path": "/a"}, {"path": "/b"}]}"#)
        try stub(#"{"not": [{"query": {"a": "2"}}, {"method": "GET"}]}"#)
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
        let answer = harness.send(.post, "/__mockstack/stubs", json: try parse(#"{"match": \#(match)}"#))
        #expect(answer.status == 400)
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == .string("Invalid stub: " + message))
    }

    @Test func aPatternHoldsAtMostSixtyFourParts() throws {
        let many = "[" + Array(repeating: #""x""#, count: 64).joined(separator: ",") + "]"
        let answer = harness.send(.post, "/__mockstack/stubs", json: try parse(#"{"match": {"path": {"or": \#(many)}}}"#))
        #expect(answer.status == 400)
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == "Invalid stub: match.path.or.63: more than 64 patterns combined")
    }
}
