import MockStackControl
import MockStackCore
import Testing

/// Request patterns cannot hold a loop however costly their regexes: the stubs tried on one
/// request, a verification over the whole journal and the waits offered a new entry each match
/// within one ``PatternBudget``; a regex out of steps does not match, and that is reported.
@Suite struct PatternBudgetTests {
    let harness = ControlHarness()

    /// Linear, but a counted repetition of a class costs every scalar hundreds of steps.
    static let costly = ".*[ab]{0,450}c"
    /// A path the costly pattern matches: millions of steps for the whole of it.
    static let longPath = "/test/" + String(repeating: "x", count: 30_000) + "c"

    @Test func stubsWhoseRegexesRunOutOfStepsDoNotTakeTheRequestAndTheJournalSaysSo() throws {
        for _ in 0..<4 {
            #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["pathRegex": .string(Self.costly)], "answer": ["status": 503]]).status == 201)
        }
        // A short path is matched in full: the stub answers.
        #expect(harness.send(.get, "/test/abc").status == 503)
        // The long one runs out of steps: the app answers it, and the journal notes why no stub did.
        let long = harness.send(.get, Self.longPath)
        #expect(long.status == 404)
        let entries = harness.json(.get, "/__mockstack/requests")["requests"]?.arrayValue ?? []
        #expect(entries.map { $0["stub"] } == ["stub-4", .null])
        #expect(entries.map { $0["patternBudgetSpent"] } == [nil, true])
    }

    @Test func aVerificationWhoseRegexesRunOutOfStepsIsA422NotAWrongCount() {
        harness.send(.get, "/test/abc")
        for _ in 0..<3 { harness.send(.get, Self.longPath) }
        let reply = harness.send(.post, "/__mockstack/requests/count", json: ["pathRegex": .string(Self.costly)])
        #expect(reply.status == 422)
        #expect(harness.json(.post, "/__mockstack/requests/find", ["pathRegex": .string(Self.costly)])
            == ["status": 422, "error": "Unprocessable Entity",
                "message": "The pattern's regular expressions ran out of steps (4000000 a request at most) at journal entry 3, so the entries from there on could not be matched; a simpler regex, or one over a shorter part of the request, can be"])
        // An ordinary regex over the same journal counts every entry.
        #expect(harness.json(.post, "/__mockstack/requests/count", ["pathRegex": "/test/x*c?"]) == ["count": 3])
        #expect(harness.json(.post, "/__mockstack/requests/count", ["pathRegex": "/test/[a-z]+"]) == ["count": 4])
    }

    @Test func aWaitWhosePatternRunsOutOfStepsOnAnEntryIsEndedWithA422() throws {
        harness.send(.get, Self.longPath)
        harness.send(.get, Self.longPath)
        // On the entries already there: refused at once, no waiter kept.
        let start = harness.send(.post, "/__mockstack/requests/wait", json: ["pattern": ["pathRegex": .string(Self.costly)]])
        #expect(start.status == 422 && start.delivery == .immediate)
        #expect(harness.json(.get, "/__mockstack/requests/wait")["waiting"] == 0)
        // Waits offered an entry share one budget: two such waits cannot both finish matching
        // the next long entry, and each is answered 422 rather than matched again on every later one.
        let waits = try (0..<2).map { _ in
            try WaitTests.Delivered(harness.send(.post, "/__mockstack/requests/wait", json: ["pattern": ["pathRegex": .string(Self.costly)], "since": 2]))
        }
        #expect(harness.json(.get, "/__mockstack/requests/wait")["waiting"] == 2)
        harness.send(.get, Self.longPath)
        #expect(waits.map { $0.responses.map(\.status) } == [[422], [422]])
        #expect(waits[0].json?["message"]
            == "The pattern's regular expressions ran out of steps (2000000 at most) matching journal entry 3; a simpler regex, or one over a shorter part of the request, can be matched")
        #expect(harness.json(.get, "/__mockstack/requests/wait")["waiting"] == 0)
    }

    @Test func theNearMissesOfGetStubsShareOneBudget() {
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["pathRegex": .string(Self.costly)]]).status == 201)
        for _ in 0..<3 { harness.send(.get, Self.longPath) }
        let misses = harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["nearMisses"]?.arrayValue ?? []
        // Newest first: the first is matched in full (a kept path is cut, without its final c), then the steps run out.
        #expect(misses.map { $0["reason"]?.stringValue?.hasSuffix("/ (the match ran out of steps: 4000000 a request at most)") } == [false, true, true])
    }
}
