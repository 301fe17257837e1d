import MockStackControl
import MockStackCore
import Testing

@Suite struct UnmatchedTests {
    let harness = ControlHarness()

    @Test func aRequestNoAppTakesIsJournaledUnmatchedWithTheRoutesItMissed() {
        let answer = harness.send(.post, "/api/Hello")
        #expect(answer.status == 404)
        let journal = harness.json(.get, "/__mockstack/requests/unmatched")
        #expect(journal["total"] == 1)
        let entry = journal["requests"]?.arrayValue?.first
        #expect(entry?["app"] == .null && entry?["path"] == "/api/Hello" && entry?["unmatched"] == true && entry?["status"] == 404)
        #expect(entry?["nearest"]?.arrayValue?.first == ["path": "/test/api/Hello", "app": "test", "name": "Hello", "methods": ["ANY"]])
    }

    @Test func amongEquallyNearRoutesTheAppInUseComesFirst() {
        let hello = [RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello")]
        let twins = ControlHarness(apps: [
            RouteApp(name: "ai", mount: "/ai", routes: hello), RouteApp(name: "test", mount: "/test", routes: hello),
        ])
        twins.send(.get, "/api/Hello")
        func nearest() -> [String] {
            let entries = twins.json(.get, "/__mockstack/requests/unmatched")["requests"]?.arrayValue ?? []
            return entries.last?["nearest"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
        }
        // Nothing in use: the order the apps are listed in.
        #expect(nearest() == ["/ai/api/Hello", "/test/api/Hello"])
        // Once the client has called `test`, `test`'s route comes first, in the unmatched list
        // too (which counts the whole journal's use, not only the entries it shows).
        twins.send(.get, "/test/api/Hello")
        #expect(nearest() == ["/test/api/Hello", "/ai/api/Hello"])
    }

    @Test func aPathTheAppHasNoRouteForIsUnmatchedToo() {
        harness.send(.get, "/test/api/Helo")
        harness.send(.get, "/test/api/Hello")
        let all = harness.json(.get, "/__mockstack/requests")["requests"]?.arrayValue ?? []
        #expect(all.map { $0["unmatched"] } == [true, false])
        #expect(all[0]["nearest"]?.arrayValue?.first?["path"] == "/test/api/Hello")
        #expect(all[1]["nearest"] == nil, "a matched entry names no routes")
        let unmatched = harness.json(.get, "/__mockstack/requests/unmatched")["requests"]?.arrayValue ?? []
        #expect(unmatched.map { $0["path"] } == ["/test/api/Helo"])
    }

    @Test func theUnmatchedListTakesTheJournalsFilters() {
        harness.send(.get, "/api/Hello")
        harness.send(.delete, "/api/Hello")
        #expect(harness.json(.get, "/__mockstack/requests/unmatched?method=DELETE")["total"] == 1)
        #expect(harness.send(.post, "/__mockstack/requests/unmatched").status == 405)
        #expect(harness.send(.get, "/__mockstack/requests/unmatched?colour=red").status == 400)
    }

    @Test func aSessionJournalsItsOwnUnmatchedRequests() {
        harness.send(.get, "/__session/s1/api/Hello")
        let entries = harness.json(.get, "/__session/s1/__mockstack/requests/unmatched")["requests"]?.arrayValue ?? []
        #expect(entries.count == 1)
        #expect(entries.first?["session"] == "s1" && entries.first?["nearest"]?.arrayValue?.first?["path"] == "/test/api/Hello")
    }
}
