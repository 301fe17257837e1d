import MockStackControl
import MockStackCore
import Testing

/// Stubs by operation: the app tells what a request reaches without running it.
@Suite struct OperationMatchingTests {
    let harness = ControlHarness()

    @Test func anOperationStubAnswersEveryRouteToItAndTheJournalKeepsTheOperation() {
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["operation": "Hello"], "answer": ["status": 503]]).status == 201)
        #expect(harness.send(.get, "/test/api/Hello").status == 503)
        #expect(harness.send(.get, "/test/hello/World").status == 503)
        #expect(harness.send(.get, "/test/api/Goodbye").status == 200)
        let journal = harness.json(.get, "/__mockstack/requests")["requests"]?.arrayValue ?? []
        #expect(journal.map { $0["operation"] } == ["Hello", "Hello", "Goodbye"])
        #expect(journal.map { $0["stub"] } == ["stub-1", "stub-1", .null])
        #expect(journal.map { $0["unmatched"] } == [false, false, false])
    }

    @Test func theOperationIsAskedOnlyWhenTheRestOfTheStubMatched() {
        // An app of its own: the shared ones' counters see other tests' requests.
        let app = RouteApp(name: "test", mount: "/test", routes: [RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello")])
        let harness = ControlHarness(apps: [app])
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(app.asked.count == 0, "no stubs: the app is not asked")
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["method": "DELETE", "operation": "Hello"], "answer": ["status": 503]]).status == 201)
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(app.asked.count == 0, "the method did not match: the operation was not needed")
        #expect(harness.send(.delete, "/test/api/Hello").status == 503)
        #expect(app.asked.count == 1 && app.answered.count == 2, "asked once, and the stub answered instead of the app")
        // Verification counts by the operation the journal kept.
        #expect(harness.json(.post, "/__mockstack/requests/count", ["operation": "Hello"]) == ["count": 3])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["operation": "Goodbye"]) == ["count": 0])
    }
}
