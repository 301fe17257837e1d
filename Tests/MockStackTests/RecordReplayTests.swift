import Foundation
import MockStack
import MockStackCore
import Logging
import MockStackInProcess
import Testing
import TestSupport

/// `mockstack record`'s parts over loopback: a second mockstack is the target, a recording
/// proxy writes an app folder, and a third server answers from it as the target did.
@Suite(.timeLimit(.minutes(3)))
struct RecordReplayTests {
    /// One request, and the parts of its answer a replay must give back.
    struct Exchange {
        var method = "GET"
        var path: String
        var body: String?
        var contentType = "application/json"
    }

    static func upstream(_ apps: [String]) async throws -> InProcessMockStack {
        var configuration = MockStackConfiguration(fixtures: [ProxyTests.fixtures], apps: apps)
        configuration.logger.logLevel = .error
        let settings = configuration
        return try await offThePool { try InProcessMockStack(configuration: settings) }
    }

    /// A recording proxy for `target`, writing `out/app`.
    static func recorder(_ target: String, out: URL, app: String = "recorded", kind: RecordingKind = .auto,
                         masks: Bool = true) async throws -> (InProcessMockStack, Recorder) {
        let upstream = try UpstreamTarget(parsing: target)
        // The recorder asks the target for its metadata (or root) before it is made: off the pool.
        let recorder = try await offThePool {
            try Recorder(out: out, appName: app, kind: kind, client: UpstreamClient(target: upstream), masking: SecretMasking(masks: masks))
        }
        var configuration = MockStackConfiguration()
        configuration.loadsApps = false
        configuration.proxyUnmatched = upstream
        configuration.proxyObserver = { request, response in recorder.record(request, response) }
        configuration.logger.logLevel = .critical
        let settings = configuration
        return (try await offThePool { try InProcessMockStack(configuration: settings) }, recorder)
    }

    static func replay(_ out: URL) async throws -> InProcessMockStack {
        var configuration = MockStackConfiguration(fixtures: [out])
        configuration.logger.logLevel = .error
        let settings = configuration
        return try await offThePool { try InProcessMockStack(configuration: settings) }
    }

    static func send(_ exchange: Exchange, port: Int, prefix: String = "") async throws -> RawResponse {
        var request = "\(exchange.method) \(prefix)\(exchange.path) HTTP/1.1\r\nHost: t\r\n"
        if let body = exchange.body {
            request += "Content-Type: \(exchange.contentType)\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        let raw = request + "\r\n" + (exchange.body ?? "")
        return try await offThePool { try rawExchange(port: port, raw) }
    }

    static func stub(_ json: String, on server: InProcessMockStack) async throws {
        let port = server.ready.port
        let created = try await offThePool {
            try rawExchange(port: port, "POST /__mockstack/stubs HTTP/1.1\r\nHost: t\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)")
        }
        #expect(created.status == 201)
    }

    static func stop(_ server: InProcessMockStack) async throws {
        try await offThePool { server.stop() }
    }

    /// Records `exchanges` through a recorder of `target`, then replays them (those at
    /// `replaying`, all by default: a Feathers replay leaves out the writes, which add records)
    /// against the app folder: each replayed answer has the recorded status, content type,
    /// `Location` and bytes. `sameAfterward` are sent to the replay only.
    static func recordThenReplay(_ target: String, kind: RecordingKind, _ exchanges: [Exchange], expectedKind: String,
                                 replaying: [Int]? = nil, sameAfterward: [Exchange] = [])
        async throws -> (recorded: [RawResponse], replayed: [RawResponse], out: URL) {
        let out = try makeTemporaryDirectory()
        let (proxy, recorder) = try await recorder(target, out: out, kind: kind)
        var recorded: [RawResponse] = []
        for exchange in exchanges { recorded.append(try await send(exchange, port: proxy.ready.port)) }
        try await stop(proxy)
        #expect(recorder.kind.rawValue == expectedKind)
        #expect(recorder.conflicts == [])
        let manifest = try JSONParser().parse([UInt8](Data(contentsOf: out.appending(path: "recorded/app.json")))).root
        #expect(manifest["kind"]?.stringValue == expectedKind)
        let replay = try await replay(out)
        defer { replay.stop() }
        let indices = replaying ?? Array(exchanges.indices)
        var replayed: [RawResponse] = []
        for exchange in indices.map({ exchanges[$0] }) + sameAfterward {
            replayed.append(try await send(exchange, port: replay.ready.port, prefix: "/recorded"))
        }
        for (index, after) in zip(indices, replayed) {
            let before = recorded[index]
            #expect(after.status == before.status, "exchange \(index): \(exchanges[index].path)")
            #expect(after.header("Content-Type") == before.header("Content-Type"), "exchange \(index)")
            #expect(after.text == before.text, "exchange \(index): \(exchanges[index].path)")
            #expect(after.header("Location") == before.header("Location"), "exchange \(index)")
        }
        return (recorded, replayed, out)
    }

    @Test func staticTrafficReplaysByteForByte() async throws {
        let upstream = try await Self.upstream(["example"])
        defer { upstream.stop() }
        // Pretty JSON, which the static app would re-encode unless told to keep it verbatim.
        try await Self.stub(#"{"match":{"path":"/example/pretty"},"answer":{"status":200,"headers":{"Content-Type":"application/json"},"body":"{\n  \"a\": [1, 2]\n}\n"}}"#, on: upstream)
        try await Self.stub(#"{"match":{"path":"/example/page.html"},"answer":{"status":200,"headers":{"Content-Type":"text/html; charset=utf-8"},"body":"<p>hi</p>"}}"#, on: upstream)
        let (recorded, _, out) = try await Self.recordThenReplay(upstream.ready.url + "/example", kind: .auto, [
            Exchange(path: "/hello"),
            Exchange(path: "/widgets"),
            Exchange(method: "POST", path: "/widgets", body: #"{"name":"sprocket"}"#),
            Exchange(path: "/pretty"),
            Exchange(path: "/page.html"),
            Exchange(path: "/nothing"),
        ], expectedKind: "static")
        #expect(recorded.map(\.status) == [200, 200, 201, 200, 200, 404])
        // The target's Location under its base, as the proxy's path for it.
        #expect(recorded[2].header("Location") == "/widgets/7")
        #expect(recorded[3].text == "{\n  \"a\": [1, 2]\n}\n")
        let manifest = try String(contentsOf: out.appending(path: "recorded/app.json"), encoding: .utf8)
        #expect(manifest.contains(#""fixture": "get-pretty.json""#))
        #expect(manifest.contains(#""verbatim": true"#))
        try? FileManager.default.removeItem(at: out)
    }

    @Test func aPathWithDotSegmentsIsNeitherSentNorRecorded() async throws {
        let upstream = try await Self.upstream(["example"])
        defer { upstream.stop() }
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let (proxy, recorder) = try await Self.recorder(upstream.ready.url + "/example", out: out, kind: .static)
        let escaping = try await Self.send(Exchange(path: "/../test/api/Hello"), port: proxy.ready.port)
        let kept = try await Self.send(Exchange(path: "/hello"), port: proxy.ready.port)
        try await Self.stop(proxy)
        #expect(escaping.status == 400)
        #expect(kept.status == 200)
        // Handed to the recorder directly (as an embedder's observer might), such a path is not kept either.
        #expect(recorder.record(HTTPRequest(method: .get, target: "/x/../../secret"), HTTPResponse(status: 200, body: Array("s".utf8))) == [])
        let manifest = try JSONParser().parse([UInt8](Data(contentsOf: out.appending(path: "recorded/app.json")))).root
        #expect(manifest["routes"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["/hello"])
        #expect(recorder.summary["answers"] == 1)
    }

    @Test func feathersServicesReplayWithTheirRecordsAndPages() async throws {
        let upstream = try await Self.upstream(["feathers"])
        defer { upstream.stop() }
        let creates = ["Ann", "Bob", "Cy"].map { Exchange(method: "POST", path: "/people-paginated", body: #"{"name":"\#($0)","age":30}"#) }
        let (recorded, _, out) = try await Self.recordThenReplay(upstream.ready.url + "/feathers", kind: .feathers, creates + [
            Exchange(method: "POST", path: "/people", body: #"{"name":"Dee","age":41}"#),
            Exchange(path: "/people-paginated"),
            Exchange(path: "/people-paginated?$limit=2"),
            Exchange(path: "/people-paginated/1"),
            Exchange(path: "/people"),
            Exchange(path: "/people/0"),
        ], expectedKind: "feathers", replaying: [4, 5, 6, 7, 8])
        #expect(recorded.map(\.status) == [201, 201, 201, 201, 200, 200, 200, 200, 200])
        #expect(recorded[5].text == #"{"total":3,"limit":2,"skip":0,"data":[{"name":"Ann","age":30,"id":0},{"name":"Bob","age":30,"id":1}]}"#)
        let manifest = try JSONParser().parse([UInt8](Data(contentsOf: out.appending(path: "recorded/app.json")))).root
        #expect(manifest["services"]?["people-paginated"]?["paginate"] == ["default": 10, "max": 10])
        #expect(manifest["services"]?["people"]?["seed"] == "people.json")
        try? FileManager.default.removeItem(at: out)
    }

    @Test func serviceStackAnswersReplayPerRequest() async throws {
        let upstream = try await Self.upstream(["test"])
        defer { upstream.stop() }
        let (recorded, replayed, out) = try await Self.recordThenReplay(upstream.ready.url + "/test", kind: .auto, [
            Exchange(path: "/api/Hello?name=World"),
            Exchange(method: "POST", path: "/api/Hello", body: #"{"name":"Ann"}"#),
            Exchange(method: "PUT", path: "/api/ThrowType", body: #"{"type":"NotFound","message":"not here"}"#),
        ], expectedKind: "servicestack", sameAfterward: [Exchange(path: "/api/Hello?name=Else")])
        #expect(recorded.map(\.status) == [200, 200, 404])
        #expect(recorded[1].text == #"{"result":"Hello, Ann!"}"#)
        // A request not recorded is the emulation's: Hello, unnamed in the recorded manifest, echoes.
        #expect(replayed.last?.status == 200)
        #expect(replayed.last?.text != #"{"result":"Hello, Else!"}"#)
        #expect(FileManager.default.fileExists(atPath: out.appending(path: "recorded/metadata.json").path))
        // The host's `/hellotypes/{Name}` binds no property: the manifest names it, so the app loads.
        let manifest = try JSONParser().parse([UInt8](Data(contentsOf: out.appending(path: "recorded/app.json")))).root
        #expect(manifest["operations"]?["HelloTypes"] == ["unboundRouteVariables": ["Name"]])
        try? FileManager.default.removeItem(at: out)
    }

    @Test func secretsAreLeftOutOrMaskedByDefault() async throws {
        let upstream = try await Self.upstream(["example"])
        defer { upstream.stop() }
        try await Self.stub(#"{"match":{"path":"/example/login"},"answer":{"status":200,"headers":{"Content-Type":"application/json","Set-Cookie":"sid=s3cr3t","X-Api-Key":"k-123","X-Trace":"t1"},"body":{"user":"ann","accessToken":"eyJ.abc","nested":{"refresh_token":"r-1","password":"pw"}}}}"#, on: upstream)
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let (proxy, _) = try await Self.recorder(upstream.ready.url + "/example", out: out)
        let live = try await Self.send(Exchange(path: "/login"), port: proxy.ready.port)
        try await Self.stop(proxy)
        #expect(live.header("Set-Cookie") == "sid=s3cr3t")
        let replay = try await Self.replay(out)
        defer { replay.stop() }
        let kept = try await Self.send(Exchange(path: "/login"), port: replay.ready.port, prefix: "/recorded")
        #expect(kept.text == #"{"user":"ann","accessToken":"***masked***","nested":{"refresh_token":"***masked***","password":"***masked***"}}"#)
        #expect(kept.header("Set-Cookie") == nil)
        #expect(kept.header("X-Api-Key") == "***masked***")
        #expect(kept.header("X-Trace") == "t1")
    }

    @Test func reRecordingMergesAndReportsAConflict() async throws {
        let upstream = try await Self.upstream(["example"])
        defer { upstream.stop() }
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let (first, _) = try await Self.recorder(upstream.ready.url + "/example", out: out)
        _ = try await Self.send(Exchange(path: "/hello"), port: first.ready.port)
        try await Self.stop(first)
        try await Self.stub(#"{"match":{"path":"/example/hello"},"answer":{"status":200,"body":{"result":"changed"}}}"#, on: upstream)
        let (second, recorder) = try await Self.recorder(upstream.ready.url + "/example", out: out)
        _ = try await Self.send(Exchange(path: "/hello"), port: second.ready.port)
        _ = try await Self.send(Exchange(path: "/widgets"), port: second.ready.port)
        try await Self.stop(second)
        #expect(recorder.conflicts.count == 1)
        #expect(recorder.conflicts.first?.hasPrefix("GET /hello answered 200 (20 bytes), but the app already answers GET /hello with 200 (26 bytes) from get-hello.json") == true)
        #expect(recorder.summary["answers"] == 1)
        let replay = try await Self.replay(out)
        defer { replay.stop() }
        #expect(try await Self.send(Exchange(path: "/hello"), port: replay.ready.port, prefix: "/recorded").text == #"{"result":"Hello, World!"}"#)
        #expect(try await Self.send(Exchange(path: "/widgets"), port: replay.ready.port, prefix: "/recorded").status == 200)
    }

    @Test func aFolderOfAnotherKindOrAFileIsRefused() async throws {
        let upstream = try await Self.upstream(["example"])
        defer { upstream.stop() }
        let out = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try writeFiles(["recorded/app.json": #"{"kind":"feathers","services":{}}"#, "file.txt": "x"], under: out)
        let client = UpstreamClient(target: try UpstreamTarget(parsing: upstream.ready.url + "/example"))
        #expect(throws: RecordingError.self) {
            _ = try Recorder(out: out, appName: "recorded", kind: .static, client: client, masking: SecretMasking(masks: true))
        }
        do {
            _ = try Recorder(out: out, appName: "recorded", kind: .static, client: client, masking: SecretMasking(masks: true))
        } catch {
            #expect(error.message == "\(out.path)/recorded holds a feathers app; recording --kind static into it would mix two kinds (choose another --app or --out, or --kind feathers)")
        }
        do {
            _ = try Recorder(out: out.appending(path: "file.txt"), appName: "recorded", kind: .static, client: client, masking: SecretMasking(masks: true))
            Issue.record("a file taken for --out")
        } catch {
            #expect(error.message == "--out \(out.path)/file.txt is a file; it must be a folder (app folders are written inside it)")
        }
    }
}
