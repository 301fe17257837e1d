import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The façade over real sockets: control plane, mounts, exposed ports, shipped fixtures.
@Suite(.timeLimit(.minutes(3)))
struct ServerTests {
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    @Test func controlPlaneAnswersHealthAndApps() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [Self.fixtures]))
        defer { mock.stop() }
        let health = try rawExchange(port: mock.ready.port, "GET /__mockstack/health HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(health.status == 200)
        #expect(health.header("Content-Type") == "application/json; charset=utf-8")
        #expect(health.text == #"{"status":"ok"}"#)
        let apps = try rawExchange(port: mock.ready.port, "GET /__mockstack/apps HTTP/1.1\r\nHost: t\r\n\r\n")
        let json = try JSONParser().parse(apps.body).root
        let example = json["apps"]?.arrayValue?.first { $0["name"] == "example" }
        #expect(json["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["ai", "example", "feathers", "feathers-v4", "techstacks", "test"])
        #expect(example?["mount"] == "/example")
        #expect(example?["kind"] == "static")
        #expect(example?["routes"]?.arrayValue?.count == 3)
        let post = try rawExchange(port: mock.ready.port, "POST /__mockstack/health HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let unknown = try rawExchange(port: mock.ready.port, "GET /__mockstack/nope HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(unknown.status == 404)
        #expect(unknown.text == #"{"status":404,"error":"Not Found","message":"No control endpoint /__mockstack/nope; available: /__mockstack/health, /__mockstack/apps, /__mockstack/requests, /__mockstack/reset, /__mockstack/stubs, /__mockstack/scenarios, /__mockstack/sockets, /__mockstack/events, /__mockstack/server-events, /__mockstack/sessions, /__mockstack/tls"}"#)
    }

    @Test func pathsOutsideEveryAppAre404JSON() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [Self.fixtures]))
        defer { mock.stop() }
        let response = try rawExchange(port: mock.ready.port, "GET /examples/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 404)
        #expect(response.text == #"{"status":404,"error":"Not Found","message":"No app is mounted at /examples/hello; mounted: /ai, /example, /feathers, /feathers-v4, /techstacks, /test"}"#)
    }

    @Test func servesFixturesWithETagAnd304() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [Self.fixtures]))
        defer { mock.stop() }
        let first = try rawExchange(port: mock.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(first.status == 200)
        #expect(first.text == #"{"result":"Hello, World!"}"#)
        let tag = try #require(first.header("ETag"))
        let second = try rawExchange(port: mock.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(tag)\r\n\r\n")
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
        #expect(second.header("ETag") == tag)
        let created = try rawExchange(port: mock.ready.port, "POST /example/widgets HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
        #expect(created.status == 201)
        #expect(created.header("Location") == "/example/widgets/7")
    }

    @Test func exposesAnAppAtTheRootOfItsOwnPort() throws {
        var configuration = MockStackConfiguration(fixtures: [Self.fixtures])
        configuration.exposed = [(app: "example", port: 0)]
        let mock = try InProcessMockStack(configuration: configuration)
        defer { mock.stop() }
        let exposedPort = try #require(mock.ready.exposed.first?.port)
        #expect(mock.ready.exposed.first?.name == "example")
        #expect(exposedPort != mock.ready.port)
        #expect(try rawExchange(port: exposedPort, "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n").text == #"{"result":"Hello, World!"}"#)
        #expect(mock.ready.line.contains(#""exposed":{"example":{"port":\#(exposedPort),"url":"http://127.0.0.1:\#(exposedPort)"}}"#))
    }

    @Test func refusesBrokenFixturesWithEveryDiagnostic() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["broken/app.json": "{\"kind\": \"static\", \"routes\": [{\"path\": \"/x\", \"fixture\": \"gone.json\"}]}"], under: root)
        try writeFiles(["other/app.json": "{\"kind\": \"static\", \"mount\": \"/\", \"routes\": []}"], under: root)
        do {
            _ = try MockStackServer(configuration: MockStackConfiguration(fixtures: [root]))
            Issue.record("a broken fixtures tree must not load")
        } catch let errors as FixtureErrors {
            #expect(errors.diagnostics.map(\.description) == [
                "\(root.relativePath)/broken/app.json:1:57: /routes/0/fixture: no file 'gone.json' in \(root.relativePath)/broken",
                "\(root.relativePath)/other/app.json:1:29: /mount: mount '/' must start with '/' and name at least one segment (use --expose to serve an app at a port's root)",
            ])
        }
    }

    @Test func theReadyLineRoundTrips() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [Self.fixtures]))
        defer { mock.stop() }
        #expect(ReadyEvent(line: mock.ready.line) == mock.ready)
        #expect(try mock.url(for: "example").absoluteString == "http://127.0.0.1:\(mock.ready.port)/example")
    }

    /// A typo in an app's name is an error that names the apps, not a trap.
    @Test func anUnknownAppsURLThrowsNamingTheApps() throws {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [Self.fixtures]))
        defer { mock.stop() }
        let served = mock.ready.apps.map(\.name)
        #expect(throws: UnknownAppError(app: "tests", apps: served)) { try mock.url(for: "tests") }
        #expect(UnknownAppError(app: "tests", apps: ["example", "test"]).description
            == "mockstack has no app named 'tests' (did you mean 'test'?); it serves: example, test")
        #expect(UnknownAppError(app: "shop", apps: ["example", "test"]).description == "mockstack has no app named 'shop'; it serves: example, test")
        let session = mock.session("typo")
        #expect(throws: UnknownAppError(app: "exmaple", apps: served)) { try session.url(for: "exmaple") }
    }

    @Test func routesTableListsEveryRoute() throws {
        let apps = try AppLoader.standard.load(from: DirectoryFixtureSource(root: Self.fixtures))
        let lines = RoutesTable(apps: apps).rendered.split(separator: "\n").map { $0.replacing(#/ +/#, with: " ") }
        #expect(lines.prefix(3) == [
            "APP MOUNT OPERATION VERBS ROUTE",
            "ai /ai AdminData ANY /ai/api/AdminData",
            "ai /ai ConvertAudio ANY /ai/api/ConvertAudio",
        ])
        #expect(lines.contains("ai /ai OpenAiChatCompletion POST /ai/v1/chat/completions"))
        #expect(lines.contains("ai /ai SpeechToText POST /ai/api/SpeechToText"))
        #expect(lines.contains("ai /ai GetVariant ANY /ai/variants/{Variant}/{**Path}"))
        // The native-types services close each ServiceStack app's routes.
        #expect(lines.contains("ai /ai TypesJava ANY /ai/types/java"))
        #expect(lines.lastIndex { $0.hasPrefix("ai /ai Types") }.map { lines[$0 + 1] } == "example /example hello.json GET /example/hello")
        #expect(lines.contains("example /example widget-created.json POST /example/widgets"))
        #expect(lines.contains("test /test Hello ANY /test/hello/{Name}"))
        #expect(lines.contains("test /test SendRestGet GET /test/sendrestget/{Id}"))
        #expect(lines.contains("test /test SendPost POST /test/api/SendPost"))
    }
}
