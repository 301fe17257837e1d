import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// `serve --stubs DIR` end to end (README.md, Stubs kept in files): the files' stubs answer from
/// the start, a broken one stops the start with its line and column, `--watch` swaps edits in
/// (a broken edit keeps the last good set), and the testing product loads and exports the same
/// files. Edits are followed by `reloadChangedFixtures()`, which returns once they are in.
@Suite(.timeLimit(.minutes(3)))
final class StubFoldersTests {
    let root: URL
    let stubsFolder: URL

    init() throws {
        root = try makeTemporaryDirectory()
        stubsFolder = root.appendingPathComponent("stubs")
        try writeFiles([
            "stubs/hello.json": #"{"match": {"path": "/test/api/Hello"}, "answer": {"status": 418, "body": {"from": "file"}}}"#,
            "stubs/more/list.json": #"[{"match": {"path": "/nowhere"}, "answer": {"body": "here"}}]"#,
            "stubs/.hidden.json": "not even JSON",
            "stubs/notes.txt": "not a stub",
        ], under: root)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    private func server(watching: Bool = true) throws -> (InProcessMockStack, FeathersClient) {
        var configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test"])
        configuration.stubFolders = [stubsFolder]
        configuration.watchesFixtures = watching
        let mock = try InProcessMockStack(configuration: configuration)
        return (mock, FeathersClient(base: mock.baseURL.absoluteString))
    }

    @Test func theFilesStubsAnswerFromTheStart() async throws {
        let (mock, client) = try server(watching: false)
        defer { mock.stop() }
        let hello = try await client.send("GET", "/test/api/Hello?name=A")
        #expect(hello.status == 418 && hello.text == #"{"from":"file"}"#)
        #expect(try await client.send("GET", "/nowhere").text == "here")
        let listed = try await mock.stubs()
        #expect(listed.map(\.file) == [stubsFolder.relativePath + "/hello.json", stubsFolder.relativePath + "/more/list.json"])
    }

    @Test func aBrokenFileStopsTheStartAtItsLineAndColumn() throws {
        try writeFiles(["stubs/hello.json": "{\"match\": {\"path\": \"/x\"},\n \"answer\": {\"status\": \"teapot\"}}"], under: root)
        let error = #expect(throws: FixtureErrors.self) { try self.server() }
        #expect(error?.diagnostics.map(\.description) == [stubsFolder.relativePath + "/hello.json:2:23: /answer/status: expected a whole number"])
        var configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test"])
        configuration.stubFolders = [root.appendingPathComponent("stubz")]
        let missing = #expect(throws: MockStackError.self) { try InProcessMockStack(configuration: configuration) }
        #expect(missing?.description == "--stubs \(root.appendingPathComponent("stubz").relativePath): no such folder")
    }

    @Test func anEditIsSwappedInAndABrokenOneKeepsTheLastGoodSet() async throws {
        let (mock, client) = try server()
        defer { mock.stop() }
        try writeFiles(["stubs/hello.json": #"{"match": {"path": "/test/api/Hello"}, "answer": {"status": 503}}"#], under: root)
        mock.server.reloadChangedFixtures()
        #expect(try await client.send("GET", "/test/api/Hello").status == 503)
        try writeFiles(["stubs/hello.json": #"{"match": {"path": "/test/api/Hello"}, "answer": {"status": "oops"}}"#], under: root)
        mock.server.reloadChangedFixtures()
        #expect(try await client.send("GET", "/test/api/Hello").status == 503)
        // A stub added at runtime is not one of the files': a reload keeps it.
        try await mock.stub(.get("/added"), .status(201))
        try FileManager.default.removeItem(at: stubsFolder.appendingPathComponent("hello.json"))
        mock.server.reloadChangedFixtures()
        #expect(try await client.send("GET", "/test/api/Hello?name=A").status == 200)
        #expect(try await client.send("GET", "/added").status == 201)
    }

    @Test func theTestingProductExportsAndLoadsTheSameFiles() async throws {
        let (mock, client) = try server(watching: false)
        defer { mock.stop() }
        try await mock.stub(.post("/test/api/Hello"), .status(401), priority: 1)
        let exported = try await mock.exportStubs(to: root.appendingPathComponent("exported"))
        #expect(exported.map(\.lastPathComponent) == ["001-stub-1.json", "002-stub-2.json", "003-stub-3.json"])
        #expect(try String(contentsOf: exported[2], encoding: .utf8) == """
            {
              "match": {
                "method": "POST",
                "path": "/test/api/Hello"
              },
              "answer": {
                "status": 401
              },
              "priority": 1
            }

            """)
        let again = await #expect(throws: StubFileError.self) { try await mock.exportStubs(to: self.root.appendingPathComponent("exported")) }
        #expect(again?.message.hasPrefix("already holds stub files (001-stub-1.json") == true)
        // A server started on the export answers as this one does; so does one loaded at runtime.
        try await mock.reset()
        try await mock.removeStubs()
        let loaded = try await mock.loadStubs(from: root.appendingPathComponent("exported"))
        #expect(loaded.count == 3)
        #expect(try await client.send("POST", "/test/api/Hello").status == 401)
        #expect(try await client.send("GET", "/test/api/Hello").status == 418)
        // A definition the server refuses names its file.
        try writeFiles(["bad/x.json": #"[{"answer": {}}, {"answer": {"status": 1}}]"#], under: root)
        let refused = await #expect(throws: StubFileError.self) { try await mock.loadStubs(from: self.root.appendingPathComponent("bad")) }
        #expect(refused?.description == "x.json#/1: Invalid stub: answer.status: expected a status from 200 to 599")
    }
}
