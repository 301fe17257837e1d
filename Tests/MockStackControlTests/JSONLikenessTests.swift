@testable import MockStackControl
import MockStackCore
import MockStackWire
import Testing

/// `{"equalToJson": …, "ignoreArrayOrder": true, "ignoreExtraElements": true}` under
/// `bodyPointers`: WireMock's lenient JSON equality, bounded by the request's budget.
@Suite struct JSONLikenessTests {
    let harness = ControlHarness()

    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)).root }

    private func stub(_ like: String) throws {
        let answer = harness.send(.post, "/__mockstack/stubs", json: try parse(#"{"match": {"bodyPointers": {"": \#(like)}}, "answer": {"status": 418}}"#))
        try #require(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    private func status(_ body: String) throws -> Int {
        harness.send(.post, "/test/api/Hello", json: try parse(body)).status
    }

    @Test func arrayOrderIgnoredNeedsAnItemForEachExpectedOne() throws {
        try stub(#"{"equalToJson": {"tags": ["a", "b", "a"], "n": 1}, "ignoreArrayOrder": true}"#)
        #expect(try status(#"{"n": 1.0, "tags": ["a", "a", "b"]}"#) == 418)
        #expect(try status(#"{"n": 1, "tags": ["b", "a", "b"]}"#) == 200, "two a's are expected")
        #expect(try status(#"{"n": 1, "tags": ["a", "a", "b", "c"]}"#) == 200, "extra items are not ignored")
        #expect(try status(#"{"n": 1, "tags": ["a", "a", "b"], "x": 2}"#) == 200, "extra members are not ignored")
    }

    @Test func extraElementsIgnoredAllowMoreMembersAndItems() throws {
        try stub(#"{"equalToJson": {"user": {"id": 7}, "items": [1, 3]}, "ignoreExtraElements": true}"#)
        #expect(try status(#"{"user": {"id": 7, "name": "Ann"}, "items": [1, 2, 3], "more": true}"#) == 418)
        #expect(try status(#"{"user": {"id": 7}, "items": [3, 1]}"#) == 200, "in order, unless order is ignored too")
        #expect(try status(#"{"user": {"name": "Ann"}, "items": [1, 3]}"#) == 200)
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["hits"] == 1)
    }

    @Test func bothTogetherAndTheReasonOfAMiss() throws {
        try stub(#"{"equalToJson": [{"id": 2}, {"id": 1}], "ignoreArrayOrder": true, "ignoreExtraElements": true}"#)
        harness.send(.post, "/test/api/Hello", json: try parse(#"[{"id": 1, "a": 0}, {"id": 3}]"#))
        let reason = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["nearMisses"]?.arrayValue?.first?["reason"]
        #expect(reason == #"the body is not like [{"id":2},{"id":1}] (array order and extra elements ignored)"#)
        #expect(try status(#"[{"id": 3}, {"id": 1, "a": 0}, {"id": 2}]"#) == 418)
    }

    @Test func aLargeComparisonStaysWithinTheBudget() throws {
        let many = "[" + (0..<2000).map { #"{"k": \#($0)}"# }.joined(separator: ",") + "]"
        try stub(#"{"equalToJson": \#(many), "ignoreArrayOrder": true}"#)
        let reversed = "[" + (0..<2000).reversed().map { #"{"k": \#($0)}"# }.joined(separator: ",") + "]"
        var budget = PatternBudget()
        let likeness = JSONLikeness(ignoringArrayOrder: true, ignoringExtraElements: false)
        #expect(!likeness.isLike(try parse(reversed), try parse(many), within: &budget))
        #expect(budget.isSpent)
        #expect(try status(reversed) == 200)
        // The stub was passed over for want of steps, and the journal says so.
        #expect(harness.json(.get, "/__mockstack/requests")["requests"]?.arrayValue?.last?["patternBudgetSpent"] == true)
    }

    @Test func theOptionsReadAndWriteBack() throws {
        let pattern = try RequestPattern(json: parse(#"{"bodyPointers": {"/a": {"equalToJson": [1], "ignoreArrayOrder": true}}}"#), field: "match")
        #expect(pattern.bodyPointers == [.init("/a", .like([1], ignoringArrayOrder: true, ignoringExtraElements: false))])
        #expect(try RequestPattern(json: pattern.json, field: "") == pattern)
        let wrong = harness.send(.post, "/__mockstack/stubs", json: try parse(#"{"match": {"bodyPointers": {"": {"equalToJson": 1, "ignoreOrder": true}}}}"#))
        #expect((try? JSONParser().parse(wrong.body).root)?["message"]
            == "Invalid stub: match.bodyPointers..ignoreOrder: unknown field (expected one of equalToJson, ignoreArrayOrder, ignoreExtraElements)")
    }
}
