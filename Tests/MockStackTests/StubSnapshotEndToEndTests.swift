import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// Snapshot recording end to end (README.md, Snapshots): a run through `--proxy-unmatched`
/// against another server becomes stubs that answer with the upstream gone, and the files
/// `exportStubs` writes of them load into a fresh server.
@Suite(.timeLimit(.minutes(3)))
struct StubSnapshotEndToEndTests {
    @Test func proxiedAnswersBecomeStubsThatOutliveTheUpstream() async throws {
        let upstream = try await ProxyTests.upstream()
        let proxy = try await ProxyTests.proxy(to: upstream.ready.url)
        defer { proxy.stop() }
        let client = FeathersClient(base: proxy.baseURL.absoluteString)
        let live = try await client.send("GET", "/test/api/Hello?name=Live")
        #expect(live.status == 200 && live.text == #"{"result":"Hello, Live!"}"#)
        _ = try await client.send("GET", "/example/hello")
        let snapshot = try await proxy.snapshotStubs(matching: RequestPattern(pathPrefix: "/test/"))
        #expect(snapshot.skipped.isEmpty)
        #expect(snapshot.handles.count == 1)
        #expect(snapshot.definitions.first?.match == RequestPattern(method: "GET", path: .equalTo("/test/api/Hello"), query: [.init("name", .equalTo("Live"))]))
        try await ProxyTests.stop(upstream)
        let stubbed = try await client.send("GET", "/test/api/Hello?name=Live")
        #expect(stubbed.status == 200 && stubbed.text == #"{"result":"Hello, Live!"}"#)
        #expect(stubbed.headers["content-type"] == live.headers["content-type"])
        // Saved, the stubs load into a server that never saw the upstream.
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await proxy.exportStubs(to: folder)
        var configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["example"])
        configuration.stubFolders = [folder]
        let fresh = try InProcessMockStack(configuration: configuration)
        defer { fresh.stop() }
        let replayed = try await FeathersClient(base: fresh.baseURL.absoluteString).send("GET", "/test/api/Hello?name=Live")
        #expect(replayed.status == 200 && replayed.text == #"{"result":"Hello, Live!"}"#)
    }
}
