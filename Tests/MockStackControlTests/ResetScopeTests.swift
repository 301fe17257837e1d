import MockStackControl
import MockStackCore
import Testing

/// Three explicit reset scopes: the whole server (or session), one app, one session.
@Suite struct ResetScopeTests {
    let harness = ControlHarness()

    @Test func anAppsResetTakesItsJournalEntriesAndStubsOnly() {
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["app": "test"], "answer": ["status": 503]]).status == 201)
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["app": "feathers"], "answer": ["status": 504]]).status == 201)
        harness.send(.get, "/test/api/Hello")
        harness.send(.get, "/feathers/messages")
        #expect(harness.json(.post, "/__mockstack/reset?app=test") == ["reset": ["test"]])
        let left = harness.json(.get, "/__mockstack/requests")["requests"]?.arrayValue ?? []
        #expect(left.map { $0["app"] } == ["feathers"])
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["definition"]?["match"]?["app"] } == ["feathers"])
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        #expect(harness.send(.get, "/feathers/messages").status == 504)
    }

    @Test func theServerResetsOneSessionByName() {
        #expect(harness.send(.post, "/__session/s1/__mockstack/stubs", json: ["answer": ["status": 418]]).status == 201)
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["path": "/feathers/messages"], "answer": ["status": 504]]).status == 201)
        harness.send(.get, "/__session/s1/test/api/Hello")
        harness.send(.get, "/feathers/messages")
        #expect(harness.json(.post, "/__mockstack/reset?session=s1") == ["reset": ["test", "feathers"]])
        #expect(harness.json(.get, "/__session/s1/__mockstack/requests")["total"] == 0)
        #expect(harness.send(.get, "/__session/s1/test/api/Hello").status == 200)
        #expect(harness.send(.get, "/feathers/messages").status == 504, "the server's own stubs stay")
    }

    @Test(arguments: [
        ("/__mockstack/reset?colour=red", 400, "Unknown parameter 'colour' (parameters: app, session)"),
        ("/__mockstack/reset?session=nobody", 404, "No session 'nobody'"),
        ("/__mockstack/reset?session=a&app=test", 400, "Give app or session, not both"),
        ("/__session/s2/__mockstack/reset?session=s2", 400, "Unknown parameter 'session' (parameters: app)"),
        ("/__mockstack/reset?app=nope", 404, "No app named 'nope' (apps: test, feathers)"),
    ])
    func mistakesAreClear(_ target: String, _ status: Int, _ message: String) {
        let reply = harness.send(.post, target)
        #expect(reply.status == status)
        #expect(harness.json(.post, target)["message"] == .string(message))
    }
}
