import MockStackControl
import MockStackCore
import Testing

/// `POST stubs/snapshot` (README.md, Snapshots): journal entries become stubs that answer their
/// requests as they were answered; repeats become a scenario; what a stub cannot say is skipped
/// with the reason.
@Suite struct StubSnapshotTests {
    /// Apps of its own, so that their counts are this test's.
    let testApp = RouteApp(name: "test", mount: "/test", routes: (ControlHarness.apps[0] as! RouteApp).routes)
    let harness: ControlHarness

    init() {
        harness = ControlHarness(apps: [testApp, ControlHarness.apps[1]])
    }

    @Test func eachRequestBecomesAStubThatAnswersAsTheAppDid() {
        harness.send(.get, "/test/hello/Ann?lang=en&lang=fr&x=%C3%A9")
        harness.send(.post, "/feathers/messages", json: ["text": "hi", "tags": [1, 2]])
        let answer = harness.json(.post, "/__mockstack/stubs/snapshot")
        let definitions = answer["stubs"]?.arrayValue?.map { $0["definition"] ?? .null }
        #expect(definitions == [
            ["match": ["method": "GET", "path": "/test/hello/Ann", "query": ["lang": "fr", "x": "é"]],
             "answer": ["status": 200, "headers": ["Content-Type": "application/json; charset=utf-8"], "body": ["operation": "Hello"]]],
            ["match": ["method": "POST", "path": "/feathers/messages", "body": ["text": "hi", "tags": [1, 2]]],
             "answer": ["status": 200, "headers": ["Content-Type": "application/json; charset=utf-8"], "body": ["operation": "messages"]]],
        ])
        #expect(answer["skipped"] == nil)
        // The stubs answer now; the app is not asked.
        let before = testApp.answered.count
        let again = harness.send(.get, "/test/hello/Ann?lang=fr&x=%C3%A9")
        #expect(again.status == 200 && String(decoding: again.body, as: UTF8.self) == #"{"operation":"Hello"}"#)
        #expect(testApp.answered.count == before)
    }

    @Test func aRepeatedRequestAnswersEachRecordedAnswerInTurn() {
        for _ in 0..<3 { harness.send(.get, "/test/api/Hello") }
        let definitions = harness.json(.post, "/__mockstack/stubs/snapshot")["stubs"]?.arrayValue?.map { $0["definition"] ?? .null } ?? []
        #expect(definitions.map { $0["scenario"] } == Array(repeating: "GET /test/api/Hello (from request 1)", count: 3))
        #expect(definitions.map { $0["requiredState"] } == ["Started", "after 1", "after 2"])
        #expect(definitions.map { $0["newState"] } == ["after 1", "after 2", nil])
        let alone = harness.json(.post, "/__mockstack/stubs/snapshot", ["repeatsAsScenarios": false, "persist": false])
        #expect(alone["stubs"]?.arrayValue?.count == 1)
        #expect(alone["stubs"]?.arrayValue?.first?["scenario"] == nil)
    }

    @Test func aPatternAndALimitChooseTheEntriesAndPersistFalseAddsNothing() {
        harness.send(.get, "/test/api/Hello")
        harness.send(.get, "/feathers/messages")
        harness.send(.get, "/feathers/messages/1")
        let answer = harness.json(.post, "/__mockstack/stubs/snapshot", ["match": ["pathPrefix": "/feathers/"], "limit": 1, "persist": false])
        #expect(answer == ["stubs": [["match": ["method": "GET", "path": "/feathers/messages/1"],
                                       "answer": ["status": 200, "headers": ["Content-Type": "application/json; charset=utf-8"],
                                                  "body": ["operation": "messages"]]]]])
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"] == [])
    }

    @Test func whatAStubCannotSayIsSkippedWithTheReason() {
        harness.send(.post, "/__mockstack/stubs", json: ["match": ["path": "/test/api/Goodbye"], "answer": ["status": 418]])
        harness.send(.get, "/test/api/Goodbye")
        harness.send(.get, "/nowhere")
        harness.send(.get, "/test/api/Hello", headers: ["X-MockStack-Fault": "reset"])
        harness.send(.get, "/test/api/Hello", headers: ["Accept": "text/plain", "X-Trace": "7"])
        let answer = harness.json(.post, "/__mockstack/stubs/snapshot", ["captureHeaders": ["x-trace"], "persist": false])
        #expect(answer["skipped"] == [
            ["request": 1, "reason": "stub-1 answered it"],
            ["request": 2, "reason": "nothing answered it (no app, stub or upstream took it)"],
            ["request": 3, "reason": "its answer was broken on purpose (a fault)"],
        ])
        #expect(answer["stubs"]?.arrayValue?.first?["match"]?["headers"] == ["x-trace": "7"])
    }

    @Test(arguments: [
        (#"{"mtach": {}}"#, "Invalid snapshot: mtach: unknown field, did you mean 'match'? (expected one of captureHeaders, limit, match, persist, repeatsAsScenarios)"),
        (#"{"limit": 0}"#, "Invalid snapshot: limit: expected a whole number above 0"),
        (#"{"match": {"path": 5}}"#, #"Invalid snapshot: match.path: expected a string or a pattern object ({"equalTo"|"contains"|"matches": "…"}, {"absent": true}, or {"and"|"or": […]}, {"not": …})"#),
        (#"{"captureHeaders": "Accept"}"#, "Invalid snapshot: captureHeaders: expected a list of header names"),
        (#"{"persist": "yes"}"#, "Invalid snapshot: persist: expected true or false"),
        ("[1]", "Expected an object of snapshot options (match, limit, captureHeaders, repeatsAsScenarios, persist)"),
    ])
    func mistakesAreA400NamingTheField(_ body: String, _ message: String) {
        let answer = harness.root.respond(to: HTTPRequest(method: .post, target: "/__mockstack/stubs/snapshot", body: Array(body.utf8)))
        #expect(answer.status == 400)
        #expect((try? JSONParser().parse(answer.body).root)?["message"] == .string(message))
    }
}
