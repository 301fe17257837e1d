import Dispatch
import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// WireMock's stateful scenarios: stubs answer in a required state and move it on.
@Suite struct ScenarioTests {
    let harness = ControlHarness()

    private func stub(_ definition: JSONValue, in prefix: String = "") {
        #expect(harness.send(.post, prefix + "/__mockstack/stubs", json: definition).status == 201)
    }

    /// Empty cart → item added → checked out; after that the app answers.
    private func cartFlow(in prefix: String = "") {
        stub(["match": ["path": "/test/api/Hello"], "answer": ["status": 201], "scenario": "cart", "requiredState": "Started", "newState": "added"], in: prefix)
        stub(["match": ["path": "/test/api/Hello"], "answer": ["status": 202], "scenario": "cart", "requiredState": "added", "newState": "done"], in: prefix)
    }

    @Test func stubsAnswerInTheirStateAndMoveIt() {
        cartFlow()
        #expect(harness.json(.get, "/__mockstack/scenarios") == ["scenarios": [["name": "cart", "state": "Started", "possibleStates": ["Started", "added", "done"]]]])
        #expect([harness.send(.get, "/test/api/Hello").status, harness.send(.get, "/test/api/Hello").status, harness.send(.get, "/test/api/Hello").status]
            == [201, 202, 200])
        #expect(harness.json(.get, "/__mockstack/scenarios")["scenarios"]?.arrayValue?.first?["state"] == "done")
    }

    @Test func aTestCanSetAStateAndResetThemAll() {
        cartFlow()
        #expect(harness.json(.put, "/__mockstack/scenarios/cart/state", ["state": "added"]) == ["name": "cart", "state": "added"])
        #expect(harness.send(.get, "/test/api/Hello").status == 202)
        #expect(harness.send(.post, "/__mockstack/scenarios/reset").status == 204)
        #expect(harness.send(.get, "/test/api/Hello").status == 201)
        #expect(harness.json(.put, "/__mockstack/scenarios/nope/state", ["state": "x"])
            == ["status": 404, "error": "Not Found", "message": "No stub names the scenario 'nope' (scenarios: cart)"])
        #expect(harness.send(.put, "/__mockstack/scenarios/cart/state", json: ["status": "x"]).status == 400)
        #expect(harness.send(.get, "/__mockstack/scenarios/cart/state").status == 405)
    }

    @Test func aWholeResetStartsScenariosOver() {
        cartFlow()
        harness.send(.get, "/test/api/Hello")
        harness.send(.post, "/__mockstack/reset")
        cartFlow()
        #expect(harness.send(.get, "/test/api/Hello").status == 201)
    }

    @Test func eachSessionHasItsOwnScenarios() {
        cartFlow(in: "/__session/a")
        cartFlow(in: "/__session/b")
        #expect(harness.send(.get, "/__session/a/test/api/Hello").status == 201)
        #expect(harness.send(.get, "/__session/b/test/api/Hello").status == 201)
        #expect(harness.send(.get, "/__session/a/test/api/Hello").status == 202)
        #expect(harness.json(.get, "/__session/b/__mockstack/scenarios")["scenarios"]?.arrayValue?.first?["state"] == "added")
        #expect(harness.json(.get, "/__mockstack/scenarios") == ["scenarios": []])
    }

    @Test func racingLoopsMakeEachTransitionOnce() {
        cartFlow()
        let statuses = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let status = harness.send(.get, "/test/api/Hello").status
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 201 }.count == 1 && all.filter { $0 == 202 }.count == 1 && all.filter { $0 == 200 }.count == 62)
    }
}
