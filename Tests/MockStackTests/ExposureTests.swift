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

/// What a server reachable from elsewhere gives away: the control plane
/// takes a token off loopback, and no fixture or stub reads a file outside the fixtures folder.
@Suite(.timeLimit(.minutes(3)))
struct ExposureTests {
    @Test(arguments: [("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("[::1]", true), ("localhost", true),
                      ("0.0.0.0", false), ("::", false), ("192.0.2.10", false), ("127.0.0.256", false), ("mockstack", false), ("", false)])
    func onlyLoopbackAddressesCountAsLoopback(_ host: String, _ loopback: Bool) {
        #expect(AdminToken.isLoopback(host) == loopback)
    }

    @Test func aTokenIsRequiredOffLoopbackOrWhenGiven() {
        #expect(AdminAccess.forBinding(host: "127.0.0.1", token: nil) == (.open, false))
        #expect(AdminAccess.forBinding(host: "127.0.0.1", token: "") == (.open, false))
        #expect(AdminAccess.forBinding(host: "127.0.0.1", token: "s3cret") == (.token("s3cret"), false))
        #expect(AdminAccess.forBinding(host: "0.0.0.0", token: "s3cret") == (.token("s3cret"), false))
        let made = AdminAccess.forBinding(host: "0.0.0.0", token: nil)
        guard case .token(let token) = made.access else { Issue.record("no token off loopback"); return }
        #expect(made.generated && token.count == 32 && token.allSatisfy(\.isHexDigit))
        #expect(AdminAccess.forBinding(host: "::", token: nil).access != made.access, "each start makes a new token")
    }

    @Test func offLoopbackTheControlPlaneAnswersOnlyWithTheToken() async throws {
        var configuration = MockStackConfiguration(host: "0.0.0.0")
        configuration.apps = ["example", "feathers"]
        let mock = try InProcessMockStack(configuration: configuration)
        guard case .token(let token) = mock.server.adminAccess else { Issue.record("open off loopback"); return }
        #expect(mock.server.adminTokenWasGenerated && mock.ready.adminTokenRequired)
        let client = FeathersClient(mock)

        for (method, path) in [("GET", "/__mockstack/apps"), ("GET", "/__mockstack/requests"), ("POST", "/__mockstack/reset"),
                               ("POST", "/__mockstack/stubs"), ("GET", "/__mockstack/sessions"), ("GET", "/__mockstack/nothing"),
                               ("GET", "/__session/s1/__mockstack/requests")] {
            let refused = try await client.send(method, path, json: method == "POST" ? "{}" : nil)
            #expect(refused.status == 401, "\(method) \(path)")
            #expect(refused.json["error"] == "Unauthorized" && refused.json["message"]?.stringValue?.hasPrefix("The control plane needs the admin token") == true)
            #expect(refused.headers["www-authenticate"] == #"Bearer realm="mockstack""#)
        }
        // A refused session call made no session.
        #expect(try await client.send("GET", "/__mockstack/sessions", headers: ["X-MockStack-Admin-Token": token]).json["sessions"] == [])
        for headers in [["X-MockStack-Admin-Token": "wrong"], ["X-MockStack-Admin-Token": token + "0"], ["Authorization": "Bearer " + token.dropLast()],
                        ["Authorization": token], ["Authorization": "Basic " + token]] {
            #expect(try await client.send("GET", "/__mockstack/apps", headers: headers).status == 401, "\(headers)")
        }
        #expect(try await client.send("GET", "/__mockstack/apps", headers: ["X-MockStack-Admin-Token": token]).status == 200)
        #expect(try await client.send("GET", "/__mockstack/apps", headers: ["Authorization": "Bearer " + token]).status == 200)
        #expect(try await client.send("GET", "/__mockstack/apps", headers: ["Authorization": "bearer " + token]).status == 200)
        #expect(try await client.send("GET", "/__session/s1/__mockstack/requests", headers: ["X-MockStack-Admin-Token": token]).status == 200)

        // Probes and the data-free page stay open (a probe learns only that it is up); the apps
        // answer everyone, sessions included.
        let probe = try await client.send("GET", "/__mockstack/health")
        #expect(probe.status == 200 && probe.text == #"{"status":"ok"}"#)
        let page = try await client.send("GET", "/__mockstack/")
        #expect(page.status == 200 && page.text.contains("location.hash"))
        #expect(try await client.send("GET", "/example/hello").status == 200)
        #expect(try await client.send("GET", "/__session/s1/example/hello").status == 200)

        // The typed client carries the token it is given.
        let attached = try AttachedMockStack.attach(to: mock.baseURL, adminToken: token, timeout: .seconds(5))
        let journal = try await attached.requests()
        #expect(journal.map(\.path) == ["/example/hello", "/example/hello"], "the server's own request, then the session's")
        #expect(try await attached.session("s1").requests().count == 1)
        try await attached.reset()
        #expect(try await attached.requests().isEmpty)
        let refusal = #expect(throws: MockStackLaunchError.self) { try AttachedMockStack.attach(to: mock.baseURL, adminToken: "wrong", timeout: .seconds(5)) }
        #expect(refusal?.description.contains("wants its admin token (the one given is wrong)") == true)
    }

    @Test func aGivenTokenIsRequiredOnLoopbackToo() async throws {
        var configuration = MockStackConfiguration()
        configuration.apps = ["example"]
        configuration.adminToken = "s3cret"
        let mock = try InProcessMockStack(configuration: configuration)
        #expect(mock.server.adminAccess == .token("s3cret") && !mock.server.adminTokenWasGenerated)
        let client = FeathersClient(mock)
        #expect(try await client.send("DELETE", "/__mockstack/requests").status == 401)
        #expect(try await client.send("DELETE", "/__mockstack/requests", headers: ["X-MockStack-Admin-Token": "s3cret"]).status == 204)
        // The handle sends its server's token on its own control calls.
        #expect(mock.adminToken == "s3cret")
        _ = try await client.send("GET", "/example/hello")
        #expect(try await mock.requests().map(\.path) == ["/example/hello"])
        try await mock.reset()
    }

    @Test func aSpawnedServerOffLoopbackIsHandedATokenItsHandleSends() async throws {
        let mock = try MockStackProcess.launch(arguments: ["--host", "0.0.0.0", "--apps", "example"])
        defer { mock.stop() }
        let token = try #require(mock.adminToken)
        #expect(mock.ready.adminTokenRequired && token.count == 32)
        let client = FeathersClient(base: mock.baseURL.absoluteString)
        #expect(try await client.send("GET", "/__mockstack/apps").status == 401)
        _ = try await client.send("GET", "/example/hello")
        #expect(try await mock.requests().map(\.path) == ["/example/hello"])
    }

    @Test func onLoopbackWithoutATokenTheControlPlaneIsOpen() async throws {
        var configuration = MockStackConfiguration()
        configuration.apps = ["example"]
        let mock = try InProcessMockStack(configuration: configuration)
        #expect(mock.server.adminAccess == .open && !mock.ready.adminTokenRequired)
        #expect(try await FeathersClient(mock).send("GET", "/__mockstack/apps").status == 200)
    }

    // MARK: Fixture files

    /// A fixtures folder whose `demo` app names `fixture`, with `secret.json` beside the folder.
    private func fixtures(naming fixture: String, prepare: (URL) throws -> Void) throws -> (root: URL, fixtures: URL) {
        let root = try makeTemporaryDirectory()
        try writeFiles([
            "secret.json": #"{"secret":true}"#,
            "Fixtures/demo/app.json": #"{"name": "demo", "mount": "/demo", "kind": "static", "routes": [{"method": "GET", "path": "/x", "fixture": "\#(fixture)"}]}"#,
            "Fixtures/demo/inside.json": #"{"inside":true}"#,
        ], under: root)
        try prepare(root.appendingPathComponent("Fixtures/demo"))
        return (root, root.appendingPathComponent("Fixtures"))
    }

    @Test func aSymlinkOutOfTheFixturesFolderIsRefusedAtLoad() throws {
        let (root, folder) = try fixtures(naming: "leak.json") { demo in
            try FileManager.default.createSymbolicLink(atPath: demo.appendingPathComponent("leak.json").path, withDestinationPath: "../../secret.json")
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let thrown = #expect(throws: FixtureErrors.self) { try MockStackServer(configuration: MockStackConfiguration(fixtures: [folder])) }
        #expect(thrown?.diagnostics.map(\.message).contains { $0.contains("leads outside the fixtures folder") } == true, "\(String(describing: thrown))")
    }

    /// The file is no symlink, but its folder is one that leads out: refused too (a load
    /// resolves each folder once, not each file).
    @Test func aFolderSymlinkOutOfTheFixturesFolderIsRefusedAtLoad() throws {
        let (root, folder) = try fixtures(naming: "out/secret.json") { demo in
            try FileManager.default.createSymbolicLink(atPath: demo.appendingPathComponent("out").path, withDestinationPath: "../..")
        }
        defer { try? FileManager.default.removeItem(at: root) }
        for source in [try FixtureFolders([folder]).source(forOneLoad: true), try FixtureFolders([folder]).source()] {
            let thrown = #expect(throws: FixtureErrors.self) { try AppLoader.standard.load(from: source) }
            #expect(thrown?.diagnostics.map(\.message) == ["cannot read 'out/secret.json': \(folder.relativePath)/demo/out/secret.json: leads outside the fixtures folder (through a symlink)"])
        }
    }

    @Test func aSymlinkThatStaysInsideIsFollowed() async throws {
        let (root, folder) = try fixtures(naming: "alias.json") { demo in
            try FileManager.default.createSymbolicLink(atPath: demo.appendingPathComponent("alias.json").path, withDestinationPath: "inside.json")
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [folder]))
        #expect(try await FeathersClient(mock).send("GET", "/demo/x").text == #"{"inside":true}"#)
    }

    @Test func stubBodyFilesStayInsideTheFixturesFolderAndAreRegularFiles() async throws {
        let (root, folder) = try fixtures(naming: "inside.json") { demo in
            try FileManager.default.createSymbolicLink(atPath: demo.appendingPathComponent("leak.json").path, withDestinationPath: "../../secret.json")
            #expect(mkfifo(demo.appendingPathComponent("pipe.json").path, 0o600) == 0)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [folder]))
        let client = FeathersClient(mock)
        for (name, message) in [("demo/leak.json", "leads outside the fixtures folder"), ("demo/pipe.json", "is not a regular file"),
                                ("/etc/passwd", "must be a relative path"), ("demo/../../secret.json", "must be a relative path"),
                                ("demo/./inside.json", "must be a relative path"), ("demo//inside.json", "must be a relative path")] {
            let reply = try await client.send("POST", "/__mockstack/stubs", json: #"{"answer": {"bodyFile": "\#(name)"}}"#)
            #expect(reply.status == 400, "\(name)")
            #expect(reply.json["message"]?.stringValue?.contains(message) == true, "\(name): \(reply.text)")
        }
        #expect(try await client.send("POST", "/__mockstack/stubs", json: #"{"answer": {"bodyFile": "demo/inside.json"}}"#).status == 201)
    }
}
