import MockStackJSON
import MockStackWire
import Testing

/// The stub definition both sides share: read from JSON, written back, each key spelled once.
@Suite struct StubDefinitionTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)).root }

    @Test func aDefinitionReadsAndWritesBackTheSame() throws {
        let text = #"""
        {"match": {"method": "POST", "path": {"matches": "/test/api/.*"}, "query": {"name": "x", "id": {"absent": true}},
                   "headers": {"X-Env": {"contains": "STAG", "caseInsensitive": true}}, "body": {"a": 1},
                   "bodyPointers": {"/name": {"equalTo": "Ann"}, "/tags": [1, 2], "/literal": {"equalToJson": {"contains": "x"}}},
                   "app": "test", "operation": "Hello"},
         "answer": {"status": 503, "headers": {"Retry-After": "1"}, "body": "busy", "delayMs": {"min": 1, "max": 5}, "seed": 7,
                    "throttleBytesPerSecond": 100, "fault": "reset"},
         "priority": 3, "times": 2, "scenario": "checkout", "requiredState": "Started", "newState": "paid"}
        """#
        let definition = try StubDefinition(json: parse(text))
        #expect(definition.match.path == .matches("/test/api/.*"))
        #expect(definition.match.query == [.init("name", .equalTo("x")), .init("id", .absent)])
        #expect(definition.match.headers == [.init("X-Env", .contains("STAG", caseInsensitive: true))])
        #expect(definition.match.bodyPointers == [.init("/name", .pattern(.equalTo("Ann"))), .init("/tags", .json([1, 2])),
                                                 .init("/literal", .json(["contains": "x"]))])
        #expect(definition.answer.delay == .random(1...5) && definition.answer.fault == .reset && definition.answer.body == .text("busy"))
        #expect(definition.priority == 3 && definition.times == 2 && definition.newState == "paid")
        let again = try StubDefinition(json: definition.json)
        #expect(again.match == definition.match)
        #expect(again.answer == definition.answer)
        #expect(again == definition)
    }

    @Test func aPlainStringIsEqualToAndIsWrittenAsOne() throws {
        let match = try RequestPattern(json: parse(#"{"path": "/x", "headers": {"Accept": "text/plain"}}"#), field: "match")
        #expect(match.path == .equalTo("/x"))
        #expect(match.json == ["path": "/x", "headers": ["Accept": "text/plain"]])
    }

    @Test(arguments: [
        (#"{"match": {"headers": {"A": {"equalTo": "x", "contains": "y"}}}}"#,
         "match.headers.A: expected exactly one of equalTo, contains, matches, absent, and, or, not, before, after, equalToDateTime, hasExactly, includes"),
        (#"{"match": {"path": {"matches": "x", "caseInsensitive": true}}}"#,
         "match.path.caseInsensitive: not with matches (the regex syntax has no (?i); spell both cases: [Hh]ello)"),
        (#"{"match": {"query": {"q": {"absent": false}}}}"#, "match.query.q.absent: expected true"),
        (#"{"match": {"query": {"q": {"startsWith": "x"}}}}"#, "match.query.q.startsWith: unknown field (expected one of absent, after, and, before, caseInsensitive, contains, equalTo, equalToDateTime, hasExactly, includes, matches, not, or)"),
        (#"{"match": {"query": {"q": 3}}}"#, #"match.query.q: expected a string or a pattern object ({"equalTo"|"contains"|"matches": "…"}, {"absent": true}, or {"and"|"or": […]}, {"not": …})"#),
        (#"{"answer": {"delayMs": 600001}}"#, #"answer.delayMs: expected milliseconds from 0 to 600000, or {"min": ms, "max": ms}"#),
        (#"{"newState": "x"}"#, "newState: needs a scenario"),
        (#"{"priority": "high"}"#, "priority: expected a whole number"),
    ])
    func mistakesNameTheirField(_ text: String, _ message: String) throws {
        #expect(throws: WireProblem.self) { try StubDefinition(json: parse(text)) }
        do {
            _ = try StubDefinition(json: parse(text))
        } catch let problem as WireProblem {
            #expect(problem.description == message)
        }
    }

    @Test func theShorthandsSpellTheCommonStubs() {
        let stub = StubDefinition(match: .post("/test/api/Hello"), answer: .fault(.reset), times: 2)
        #expect(stub.json == ["match": ["method": "POST", "path": "/test/api/Hello"], "answer": ["status": 200, "fault": "reset"],
                              "priority": .number(JSONNumber(StubDefinition.defaultPriority)), "times": 2])
    }
}
