import MockStackControl
import MockStackCore
import Testing

/// Stubs kept in files (README.md, Stubs kept in files): a file holds a definition, a list, or a
/// saved listing; every mistake is reported at its line and column, as fixtures' are; a whole
/// reset puts the files' stubs back.
@Suite struct StubFilesTests {
    let harness = ControlHarness()

    private func read(_ files: [String: String]) throws(FixtureErrors) -> [StubFiles.Definition] {
        try harness.stubs.readFiles(files.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8)) })
    }

    private func problems(_ files: [String: String]) -> [String] {
        do {
            _ = try read(files)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aFileHoldsADefinitionAListOrASavedListing() throws {
        let definitions = try read([
            "a.json": #"{"match": {"path": "/a"}, "answer": {"status": 201}}"#,
            "b.json": #"[{"answer": {"status": 202}}, {"answer": {"status": 203}}]"#,
            "c.json": #"{"stubs": [{"id": "stub-9", "priority": 5, "hits": 3, "definition": {"answer": {"status": 204}}}]}"#,
        ])
        #expect(definitions.map(\.origin) == ["a.json", "b.json#/0", "b.json#/1", "c.json"])
        #expect(definitions.map { $0.json["answer"]?["status"] } == [201, 202, 203, 204])
    }

    @Test func everyMistakeIsReportedAtItsLineAndColumn() {
        #expect(problems([
            "a.json": "{\n  \"answer\": {\"status\": 99}\n}",
            "b.json": "[{\"answer\": {}},\n {\"match\": {\"path\": 5}}]",
            "c.json": "{\"answer\": ",
            "d.json": "42",
            "e.json": #"{"answer": {"headers": {"X.Id": 5}}}"#,
            "f.json": #"{"match": {"session": "s1"}}"#,
        ]) == [
            "a.json:2:24: /answer/status: expected a status from 200 to 599",
            "b.json:2:21: /1/match/path: expected a string or a pattern object ({\"equalTo\"|\"contains\"|\"matches\": \"…\"}, {\"absent\": true}, or {\"and\"|\"or\": […]}, {\"not\": …})",
            "c.json:1:12: /answer: invalid JSON: unexpected end of input, expected a value",
            "d.json:1:1: expected a stub definition, a list of them, or a {\"stubs\": […]} listing",
            "e.json:1:33: /answer/headers/X.Id: expected a string",
            "f.json:1:23: /match/session: a stub file's stubs answer outside sessions (the server's own)",
        ])
    }

    @Test func theFilesStubsAnswerAndAWholeResetPutsThemBack() throws {
        harness.stubs.installFileStubs(try read(["a.json": #"{"match": {"app": "test"}, "answer": {"status": 503}}"#]))
        #expect(harness.send(.get, "/test/api/Hello").status == 503)
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.first?["file"] == "a.json")
        // Removed like any other stub, until a reset puts it back, its hits at 0.
        #expect(harness.send(.delete, "/__mockstack/stubs").status == 204)
        #expect(harness.send(.get, "/test/api/Hello").status == 200)
        harness.send(.post, "/__mockstack/reset")
        #expect(harness.send(.get, "/test/api/Hello").status == 503)
        harness.send(.post, "/__mockstack/reset?app=test")
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["hits"] } == [0])
        // Loading again replaces the files' stubs and keeps those added at runtime.
        #expect(harness.send(.post, "/__mockstack/stubs", json: ["match": ["app": "feathers"], "answer": ["status": 418]]).status == 201)
        harness.stubs.installFileStubs(try read(["a.json": #"{"match": {"app": "test"}, "answer": {"status": 502}}"#]))
        #expect(harness.send(.get, "/test/api/Hello").status == 502)
        #expect(harness.send(.get, "/feathers/messages").status == 418)
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.count == 2)
    }

    @Test func aSessionsResetLeavesTheServersFileStubsAlone() throws {
        harness.stubs.installFileStubs(try read(["a.json": #"{"match": {"app": "test"}, "answer": {"status": 503}}"#]))
        harness.send(.post, "/__session/s1/__mockstack/reset")
        #expect(harness.json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.count == 1)
        #expect(harness.send(.get, "/__session/s1/test/api/Hello").status == 200, "a session's requests are its own")
    }
}
