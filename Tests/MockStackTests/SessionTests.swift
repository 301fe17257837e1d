import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// `/__session/{id}/…`: private app state, journal and stubs per session, over loopback.
@Suite(.timeLimit(.minutes(3)))
struct SessionTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init(maxSessions: Int = 256) throws {
        mock = try InProcessMockStack.shipped { $0.maxSessions = maxSessions }
        client = FeathersClient(mock)
    }

    @Test func concurrentSessionsKeepTheirFeathersWritesApart() async throws {
        async let first: Void = write(["A1", "A2", "A3"], in: "alpha")
        async let second: Void = write(["B1", "B2"], in: "beta")
        _ = try await (first, second)
        #expect(try await client.send("GET", "/__session/alpha/feathers/people").json.names == ["A1", "A2", "A3"])
        #expect(try await client.send("GET", "/__session/beta/feathers/people").json.names == ["B1", "B2"])
        // The shared app saw none of it, and each session's ids start from the fixture's.
        #expect(try await client.send("GET", "/feathers/people").json.names == [])
        #expect(try await client.send("GET", "/__session/beta/feathers/people/0").json["name"] == "B1")
    }

    private func write(_ names: [String], in session: String) async throws {
        for name in names {
            let reply = try await client.send("POST", "/__session/\(session)/feathers/people", json: #"{"name": "\#(name)"}"#)
            try #require(reply.status == 201, "\(reply.text)")
        }
    }

    @Test func eachSessionHasItsOwnJournalAndTheServerSeesAll() async throws {
        _ = try await client.send("GET", "/__session/alpha/example/hello")
        _ = try await client.send("POST", "/__session/beta/test/api/Hello", json: #"{"name": "B"}"#)
        _ = try await client.send("GET", "/example/hello")
        let alpha = try await client.send("GET", "/__session/alpha/__mockstack/requests").json["requests"]?.arrayValue ?? []
        #expect(alpha.map { $0["path"] } == ["/example/hello"])
        #expect(alpha.first?["session"] == "alpha" && alpha.first?["app"] == "example")
        let all = try await client.send("GET", "/__mockstack/requests").json["requests"]?.arrayValue ?? []
        #expect(all.map { $0["session"] } == ["alpha", "beta", .null])
        let filtered = try await client.send("GET", "/__mockstack/requests?session=beta").json["requests"]?.arrayValue ?? []
        #expect(filtered.map { $0["operation"] } == ["Hello"])
        // Clearing a session's journal leaves the others'.
        #expect(try await client.send("DELETE", "/__session/alpha/__mockstack/requests").status == 204)
        #expect(try await client.send("GET", "/__session/alpha/__mockstack/requests").json["total"] == 0)
        #expect(try await client.send("GET", "/__mockstack/requests").json["total"] == 3)
    }

    @Test func aSessionsStubsAnswerOnlyThatSession() async throws {
        let created = try await client.send("POST", "/__session/alpha/__mockstack/stubs",
                                            json: #"{"match": {"path": "/example/hello"}, "answer": {"status": 503}}"#)
        #expect(created.status == 201 && created.json["definition"]?["match"]?["session"] == "alpha")
        #expect(try await client.send("GET", "/__session/alpha/example/hello").status == 503)
        #expect(try await client.send("GET", "/__session/beta/example/hello").status == 200)
        #expect(try await client.send("GET", "/example/hello").status == 200)
        #expect(try await client.send("GET", "/__session/beta/__mockstack/stubs").json == ["stubs": []])
        // The server's own stubs stay outside sessions, as a session's stay inside it.
        #expect(try await client.send("POST", "/__mockstack/stubs", json: #"{"match": {"path": "/example/widgets"}, "answer": {"status": 500}}"#).status == 201)
        #expect(try await client.send("GET", "/example/widgets").status == 500)
        #expect(try await client.send("GET", "/__session/beta/example/widgets").status == 200)
        // Another session cannot remove it; its own can.
        let id = created.json["id"]?.stringValue ?? ""
        #expect(try await client.send("DELETE", "/__session/beta/__mockstack/stubs/\(id)").status == 404)
        #expect(try await client.send("DELETE", "/__session/alpha/__mockstack/stubs/\(id)").status == 204)
        #expect(try await client.send("GET", "/__session/alpha/example/hello").status == 200)
    }

    @Test func resetsScopeToTheSessionOrDropThemAll() async throws {
        try await write(["A"], in: "alpha")
        try await write(["B"], in: "beta")
        _ = try await client.send("POST", "/feathers/people", json: #"{"name": "Root"}"#)
        #expect(try await client.send("POST", "/__session/alpha/__mockstack/reset").json == ["reset": ["example", "feathers", "test"]])
        #expect(try await client.send("GET", "/__session/alpha/feathers/people").json.names == [])
        #expect(try await client.send("GET", "/__session/beta/feathers/people").json.names == ["B"])
        #expect(try await client.send("GET", "/feathers/people").json.names == ["Root"])
        #expect(try await client.send("GET", "/__mockstack/sessions").json["sessions"]?.arrayValue?.count == 2)
        _ = try await client.send("POST", "/__mockstack/reset")
        #expect(try await client.send("GET", "/__mockstack/sessions").json["sessions"] == [])
        #expect(try await client.send("GET", "/__session/beta/feathers/people").json.names == [])
        #expect(try await client.send("GET", "/feathers/people").json.names == [])
    }

    @Test func sessionsAreListedAndDropped() async throws {
        _ = try await client.send("GET", "/__session/alpha/example/hello")
        let listed = try await client.send("GET", "/__mockstack/sessions").json
        #expect(listed["limit"] == 256)
        let session = listed["sessions"]?.arrayValue?.first
        #expect(session?["id"] == "alpha" && session?["prefix"] == "/__session/alpha" && session?["requests"] == 1)
        #expect(try await client.send("DELETE", "/__mockstack/sessions/alpha").status == 204)
        #expect(try await client.send("DELETE", "/__mockstack/sessions/alpha").json
            == ["status": 404, "error": "Not Found", "message": "No session 'alpha'"])
    }

    @Test func theLeastRecentlyUsedSessionGoesPastTheLimit() async throws {
        let small = try SessionTests(maxSessions: 2)
        for id in ["one", "two"] { try await small.write(["x"], in: id) }
        _ = try await small.client.send("GET", "/__session/one/feathers/people")
        try await small.write(["y"], in: "three")
        let ids = try await small.client.send("GET", "/__mockstack/sessions").json["sessions"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["one", "three"])
        #expect(try await small.client.send("GET", "/__session/one/feathers/people").json.names == ["x"])
    }

    @Test func generatedFilesAndLinksCarryTheSessionPrefix() async throws {
        let swift = try await client.send("GET", "/__session/alpha/test/types/swift").text
        #expect(swift.contains("BaseUrl: http://127.0.0.1:\(mock.ready.port)/__session/alpha/test\n"))
    }

    @Test(arguments: ["/__session", "/__session/", "/__session/has space/example/hello", "/__session/\(String(repeating: "x", count: 65))/example",
                      "/__session/.../example/hello"])
    func badSessionIdsAre400s(_ path: String) async throws {
        let reply = try await client.send("GET", path.replacingOccurrences(of: " ", with: "%20"))
        #expect(reply.status == 400)
        #expect(reply.json["message"]?.stringValue?.hasPrefix("Session id: expected 1 to 64 letters, digits") == true, "\(reply.text)")
    }

    @Test func unknownPathsInASessionNameTheMounts() async throws {
        #expect(try await client.send("GET", "/__session/alpha/nowhere").json
            == ["status": 404, "error": "Not Found", "message": "No app is mounted at /nowhere; mounted: /example, /feathers, /test"])
    }
}
