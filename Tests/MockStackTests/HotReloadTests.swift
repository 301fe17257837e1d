import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// `serve --watch`: a good edit is swapped in, a broken one is reported with its
/// position while the last good version keeps serving. Each test edits the files, then calls
/// `reloadChangedFixtures()`, which returns once the edit is in (a reload the poller had begun
/// is finished first), so nothing here waits on the poller's clock.
@Suite(.timeLimit(.minutes(3)))
final class HotReloadTests {
    let root: URL
    let mock: InProcessMockStack
    let client: FeathersClient

    static let manifest = #"{"kind": "static", "mount": "/shop", "routes": [{"method": "GET", "path": "/hello", "fixture": "hello.json"}]}"#

    init() throws {
        root = try makeTemporaryDirectory()
        try writeFiles([
            "shop/app.json": Self.manifest,
            "shop/hello.json": #"{"greeting": "v1"}"#,
            "people/app.json": #"{"kind": "feathers", "mount": "/people", "services": {"people": {}}}"#,
        ], under: root)
        var configuration = MockStackConfiguration(fixtures: [root])
        configuration.watchesFixtures = true
        mock = try InProcessMockStack(configuration: configuration)
        client = FeathersClient(base: "http://127.0.0.1:\(mock.ready.port)")
    }

    deinit {
        mock.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// The edits made so far, reloaded now.
    private func reload() { mock.server.reloadChangedFixtures() }

    private var lastReload: JSONValue {
        get async throws { try await client.send("GET", "/__mockstack/health").json["lastReload"] ?? .null }
    }

    @Test func aGoodEditIsServedAndOtherAppsKeepTheirState() async throws {
        #expect(try await client.send("POST", "/people/people", json: #"{"name": "Kept"}"#).status == 201)
        _ = try await client.send("GET", "/__session/s1/shop/hello")
        try writeFiles(["shop/hello.json": #"{"greeting": "v2, a longer answer"}"#], under: root)
        reload()
        #expect(try await client.send("GET", "/shop/hello").text == #"{"greeting":"v2, a longer answer"}"#)
        let report = try await lastReload
        #expect(report["ok"] == true && report["reloaded"] == ["shop"])
        #expect(try await client.send("GET", "/people/people").json.names == ["Kept"])
        // Sessions held copies of the old apps; they start over.
        #expect(try await client.send("GET", "/__mockstack/sessions").json["sessions"] == [])
    }

    @Test func aBrokenEditIsReportedAndTheLastGoodVersionKeepsServing() async throws {
        try writeFiles(["shop/app.json": "{\"kind\": \"static\",\n  \"mount\": \"/shop\",\n  \"routes\": [ {\"path\": \"/hello\" \"fixture\": 1} ]\n}"], under: root)
        reload()
        let report = try await lastReload
        #expect(report["ok"] == false && report["reloaded"] == [])
        let problem = report["problems"]?.arrayValue?.first?.stringValue ?? ""
        #expect(problem.hasPrefix(root.relativePath + "/shop/app.json:3:"), "\(problem)")
        #expect(try await client.send("GET", "/shop/hello").text == #"{"greeting":"v1"}"#)
        // Fixing it reloads.
        try writeFiles(["shop/app.json": Self.manifest.replacingOccurrences(of: "/hello", with: "/hi")], under: root)
        reload()
        #expect(try await client.send("GET", "/shop/hi").text == #"{"greeting":"v1"}"#)
        #expect(try await client.send("GET", "/shop/hello").status == 404)
    }

    /// An app edited while another is broken comes in with the fix.
    @Test func anEditBesideABrokenAppWaitsForTheFix() async throws {
        try writeFiles(["shop/app.json": "{ broken"], under: root)
        reload()
        #expect(try await lastReload["ok"] == false)
        try writeFiles(["people/app.json": #"{"kind": "feathers", "mount": "/people", "services": {"people": {}, "pets": {}}}"#], under: root)
        reload()
        #expect(try await lastReload["ok"] == false)
        #expect(try await client.send("GET", "/people/pets").status == 404)
        try writeFiles(["shop/app.json": Self.manifest], under: root)
        reload()
        #expect(try await client.send("GET", "/people/pets").text == "[]")
        #expect(try await lastReload["reloaded"] == ["people", "shop"])
    }

    @Test func aNewAppFolderIsPickedUp() async throws {
        try writeFiles(["extra/hello.json": #"{"new": true}"#], under: root)
        try writeFiles(["extra/app.json": #"{"kind": "static", "mount": "/extra", "routes": [{"method": "GET", "path": "/", "fixture": "hello.json"}]}"#], under: root)
        reload()
        #expect(try await client.send("GET", "/extra").text == #"{"new":true}"#)
        #expect(try await client.send("GET", "/__mockstack/apps").json["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["extra", "people", "shop"])
    }
}
