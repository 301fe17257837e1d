import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import MockStackWire
import Testing
import TestSupport
import XCTest

/// The helper client libraries use: spawned and in-process modes, teardown on failure.
@Suite(.timeLimit(.minutes(3)))
struct MockStackTestingTests {
    @Test func spawnsTheBinaryAndStopsIt() throws {
        let mock = try MockStackProcess.launch()
        #expect(mock.ready.apps.map(\.name) == ["ai", "example", "feathers", "feathers-v4", "techstacks", "test"])
        let health = try rawExchange(port: mock.ready.port, "GET /__mockstack/health HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(health.status == 200)
        mock.stop()
        #expect(mock.exitStatus == 0)
        #expect(throws: RawHTTPError.self) { try RawConnection(port: mock.ready.port) }
    }

    @Test func withMockStackStopsTheServerWhenTheBodyThrows() async throws {
        struct Boom: Error {}
        let port = LockedPort()
        await #expect(throws: Boom.self) {
            try await withMockStack { mock in
                port.value = mock.ready.port
                throw Boom()
            }
        }
        #expect(throws: RawHTTPError.self) { try RawConnection(port: port.value) }
    }

    @Test func runsInProcess() async throws {
        try await withMockStack(.inProcess) { mock in
            let response = try rawExchange(port: mock.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.text == #"{"result":"Hello, World!"}"#)
        }
    }

    @Test func reportsWhyTheServerDidNotStart() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFiles(["bad/app.json": "{"], under: root)
        do {
            _ = try MockStackProcess.launch(fixtures: [root])
            Issue.record("launch should have failed")
        } catch let error as MockStackLaunchError {
            #expect(error.message.contains("exited with status 2 before it was ready"))
            #expect(error.message.contains("app.json:1:2: invalid JSON"))
        }
    }

    @Test func attachesToARunningServerAndLeavesItRunning() async throws {
        let running = try InProcessMockStack.shipped()
        defer { running.stop() }

        let attached = try AttachedMockStack.attach(to: running.baseURL)
        #expect(attached.ready.apps.map(\.name) == running.ready.apps.map(\.name))
        #expect(try attached.url(for: "example") == running.url(for: "example"))
        let hello = try rawExchange(port: running.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(hello.status == 200)
        #expect(try await attached.requests(app: "example").map(\.path) == ["/example/hello"])

        attached.stop()
        #expect(try rawExchange(port: running.ready.port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
    }

    @Test func attachingToNothingFailsWithinItsTimeout() throws {
        let closed = try InProcessMockStack.shipped(["example"])
        let url = closed.baseURL
        closed.stop()
        do {
            _ = try AttachedMockStack.attach(to: url, timeout: .milliseconds(500))
            Issue.record("attach should have failed")
        } catch let error as MockStackLaunchError {
            #expect(error.message.hasPrefix("mockstack at \(url) did not answer within"))
        }
    }

    @Test func theEnvironmentChoosesAttachedOrSpawned() {
        #expect(MockStackMode.from(environment: ["MOCKSTACK_URL": "http://mockstack:8080"]).description == "attached http://mockstack:8080")
        #expect(MockStackMode.from(environment: ["MOCKSTACK_URL": ""]).description == "spawned")
        #expect(MockStackMode.from(environment: [:]).description == "spawned")
        #expect(MockStackMode.spawned(arguments: ["--threads", "2"]).description == "spawned --threads 2")
    }
}

final class LockedPort: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The three-line XCTest usage from the README, and teardown after a failing test.
final class XCTestIntegrationTests: XCTestCase {
    var mock: (any MockStackHandle)!

    override func setUpWithError() throws {
        mock = try startMockStack()
    }

    func testTheAppURLAnswers() throws {
        let url = try mock.url(for: "example").appendingPathComponent("hello")
        let response = try rawExchange(port: url.port!, "GET \(url.path) HTTP/1.1\r\nHost: t\r\n\r\n")
        XCTAssertEqual(response.text, #"{"result":"Hello, World!"}"#)
    }

    func testTeardownRunsAfterAFailure() throws {
        let port = mock.ready.port
        // Run a deliberately failing case of its own; its teardown must still stop its server.
        let failing = FailingCase(name: "deliberateFailure") { try ($0 as! FailingCase).deliberateFailure() }
        failing.run()
        XCTAssertEqual(failing.testRun?.failureCount, 1)
        XCTAssertGreaterThan(failing.startedPort, 0)
        XCTAssertThrowsError(try RawConnection(port: failing.startedPort))
        XCTAssertNoThrow(try RawConnection(port: port))
    }
}

/// Not named `test…`, so test discovery never runs it on its own.
final class FailingCase: XCTestCase {
    var startedPort = 0

    func deliberateFailure() throws {
        let mock = try startMockStack(.inProcess)
        startedPort = mock.ready.port
        XCTFail("deliberate failure")
    }
}

/// The typed control-plane helpers: journal, reset, stubs, sessions, and
/// expectations that fail at the caller's line.
@Suite(.timeLimit(.minutes(3)))
struct ControlHelperTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init() throws {
        mock = try InProcessMockStack.shipped()
        client = FeathersClient(mock)
    }

    @Test func requestsResetAndStubsAreTyped() async throws {
        _ = try await client.send("POST", "/test/api/Hello", json: #"{"name": "Typed"}"#)
        _ = try await client.send("POST", "/feathers/people", json: #"{"name": "Ann"}"#)
        let sent = try await mock.requests(app: "test")
        #expect(sent.count == 1)
        #expect(sent.first?.method == "POST" && sent.first?.path == "/test/api/Hello" && sent.first?.operation == "Hello")
        #expect(sent.first?.bodyJSON == ["name": "Typed"] && sent.first?.header("content-type") == "application/json")
        #expect(sent.first?.responseText == #"{"result":"Hello, Typed!"}"#)

        let stubbed = try await mock.stub(.get("/example/hello"), .json(["stubbed": true], status: 503), times: 1)
        #expect(stubbed.id == "stub-1")
        #expect(try await stubbed.hits() == 0)
        #expect(try await client.send("GET", "/example/hello").status == 503)
        #expect(try await client.send("GET", "/example/hello").status == 200)
        #expect(try await mock.requests(path: "/example/hello").map(\.stub) == ["stub-1", nil])
        #expect(try await stubbed.hits() == 1)
        #expect(try await mock.stubs().map(\.id) == ["stub-1"])
        #expect(try await mock.requests(path: "/example").isEmpty, "path is exact")
        #expect(try await mock.requests(pathPrefix: "/example").count == 2)

        try await mock.reset()
        #expect(try await mock.requests().isEmpty)
        #expect(try await client.send("GET", "/feathers/people").json.names == [])
        await #expect(throws: MockStackControlError.self) { try await mock.reset(app: "nope") }
    }

    /// What the control plane lists beyond the journal is typed too: the requests nothing took,
    /// with the routes they may have meant, and the stubs' scenarios.
    @Test func unmatchedRequestsAndScenariosAreTyped() async throws {
        #expect(try await client.send("GET", "/test/api/Hello").status == 200)
        #expect(try await client.send("GET", "/api/Hello").status == 404)
        let missed = try await mock.unmatchedRequests()
        #expect(missed.map(\.path) == ["/api/Hello"] && missed.allSatisfy(\.unmatched))
        #expect(missed.first?.nearest.first == NearestRoute(path: "/test/api/Hello", app: "test", name: "Hello", methods: ["ANY"]))
        #expect(try await mock.requests().map(\.unmatched) == [false, true])
        #expect(try await mock.unmatchedRequests(app: "test").isEmpty)

        try await mock.stub(MockStub(match: .get("/example/hello"), answer: .status(503), scenario: "flaky", newState: "recovered"))
        try await mock.stub(MockStub(match: .get("/example/hello"), answer: .status(200), scenario: "flaky", requiredState: "recovered"))
        #expect(try await mock.scenarios() == [Scenario(name: "flaky", state: "Started", possibleStates: ["Started", "recovered"])])
        #expect(try await client.send("GET", "/example/hello").status == 503)
        #expect(try await mock.scenarios().map(\.state) == ["recovered"])
        try await mock.resetScenarios()
        #expect(try await mock.scenarios().map(\.state) == [Scenario.started])
        try await mock.setScenario("flaky", to: "recovered")
        #expect(try await client.send("GET", "/example/hello").status == 200)
        let unknown = await #expect(throws: MockStackControlError.self) { try await mock.setScenario("cart", to: "paid") }
        #expect(unknown?.status == 404)
    }

    /// A fault that keeps every status line from the client is journaled as what the client got:
    /// status 0 and the fault, with what the stub answered first beside it.
    @Test func aStubbedResetIsJournaledAsAReset() async throws {
        try await mock.stub(.get("/example/hello"), .fault(.reset))
        await #expect(throws: (any Error).self) { try await client.send("GET", "/example/hello") }
        let entry = try #require(try await mock.requests(path: "/example/hello").first)
        #expect(entry.status == 0 && entry.fault == "reset" && entry.stub == "stub-1")
        #expect(entry.json["response"]?["status"] == 200)
        // Asked for by header, after a delay, the same; a truncated answer's status line did arrive.
        await #expect(throws: (any Error).self) {
            try await client.send("GET", "/example/widgets", headers: ["X-MockStack-Fault": "empty", "X-MockStack-Delay": "5"])
        }
        await #expect(throws: (any Error).self) {
            try await client.send("GET", "/example/widgets", headers: ["X-MockStack-Fault": "truncate"])
        }
        let faulted = try await mock.requests(path: "/example/widgets")
        #expect(faulted.map(\.status) == [0, 200] && faulted.map(\.fault) == ["empty", "truncate"])
    }

    @Test func aSessionIsPrivateAndEnds() async throws {
        let first = mock.session()
        let second = mock.session()
        #expect(first.id != second.id && first.id.count == 16)
        #expect(try first.url(for: "feathers").absoluteString == "\(mock.baseURL.absoluteString)/__session/\(first.id)/feathers")
        let inFirst = FeathersClient(base: first.controlBase.absoluteString)
        _ = try await inFirst.send("POST", "/feathers/people", json: #"{"name": "Only here"}"#)
        try await first.stub(.get("/example/hello"), .status(418))
        #expect(try await inFirst.send("GET", "/example/hello").status == 418)
        #expect(try await first.requests().map(\.path) == ["/feathers/people", "/example/hello"])
        #expect(try await second.requests().isEmpty)
        #expect(try await FeathersClient(base: second.controlBase.absoluteString).send("GET", "/feathers/people").json.names == [])
        try await first.end()
        #expect(try await inFirst.send("GET", "/feathers/people").json.names == [])
        // Its stubs went with it.
        #expect(try await inFirst.send("GET", "/example/hello").status == 200)
        try await second.end()
    }

    @Test func aSessionsURLSessionKeepsItsCookiesToItself() async throws {
        let first = mock.session()
        let second = mock.session()
        let signIn = try first.url(for: "test").appending(path: "api/Authenticate")
        var request = URLRequest(url: signIn)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"provider":"credentials","userName":"test","password":"test"}"#.utf8)
        let (_, signedIn) = try await first.urlSession.data(for: request)
        #expect((signedIn as? HTTPURLResponse)?.statusCode == 200)
        // The sign-in's cookies carry on in the first session's own URLSession…
        let (_, inFirst) = try await first.urlSession.data(from: try first.url(for: "test").appending(path: "api/TestAuth"))
        #expect((inFirst as? HTTPURLResponse)?.statusCode == 200)
        let firstStore = try #require(first.urlSession.configuration.httpCookieStorage)
        let kept = Set((firstStore.cookies(for: signIn) ?? []).map(\.name))
        #expect(kept.isSuperset(of: ["ss-tok", "ss-id"]))
        // …and nowhere else: not in the second's, nor in the store URLSession.shared keeps.
        #expect(second.urlSession.configuration.httpCookieStorage?.cookies?.isEmpty ?? true)
        #expect(HTTPCookieStorage.shared.cookies(for: signIn)?.isEmpty ?? true)
        let (_, inSecond) = try await second.urlSession.data(from: try second.url(for: "test").appending(path: "api/TestAuth"))
        #expect((inSecond as? HTTPURLResponse)?.statusCode == 401)
        // One URLSession for every copy of the session value, until it ends.
        let copy = first
        #expect(copy.urlSession === first.urlSession)
        let before = first.urlSession
        try await first.end()
        #expect(first.urlSession !== before)
        try await second.end()
    }

    @Test func expectationsPassAndReturnWhatMatched() async throws {
        _ = try await client.send("GET", "/example/hello?x=1")
        let found = try await mock.expectRequests(app: "example", method: "GET", path: "/example/hello", count: 1)
        #expect(found.first?.query == "x=1")
        try await mock.expectNoRequests(app: "test")
    }

    @Test func aFailedExpectationIsReportedAtTheCallersLine() async throws {
        _ = try await client.send("GET", "/example/hello")
        let line = #line + 2
        await withKnownIssue {
            _ = try? await mock.expectRequests(pathPrefix: "/feathers", count: 1)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "MockStackTestingTests.swift"
                && text.contains("expected 1 request(s) with path /feathers…, found 0")
                && text.contains("the journal's newest entries:\n  #1 GET /example/hello → 200 [app example")
        }
    }

    @Test func verifyCountsByPatternAndFailsAtTheCallersLine() async throws {
        _ = try await client.send("POST", "/test/api/Hello", json: #"{"name": "Ann"}"#)
        _ = try await client.send("GET", "/test/hello/Bob")
        let found = try await mock.verify(count: .exactly(2), matching: .operation("Hello"))
        #expect(found.map(\.path) == ["/test/api/Hello", "/test/hello/Bob"])
        try await mock.verify(count: .atMost(1), matching: RequestPattern(method: "POST", bodyPointers: [.init("/name", .pattern(.contains("An")))]))
        try await mock.verify(count: .never, matching: RequestPattern(headers: [.init("Authorization", .matches("Bearer .*"))]))
        #expect(try await mock.count(matching: .prefix("/test/")) == 2)
        let line = #line + 2
        await withKnownIssue {
            _ = try? await mock.verify(count: .atLeast(3), matching: .operation("Hello"))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line && text.contains(#"expected at least 3 request(s) matching {"operation":"Hello"}, found 2"#)
                && text.contains("the journal's newest entries:\n  #1 POST /test/api/Hello → 200 [app test, Hello]")
        }
    }

    @Test func aStubHandleTellsItsHitsAndNearMisses() async throws {
        let handle = try await mock.stub(.post("/test/api/Hello"), .status(503))
        _ = try await client.send("GET", "/test/api/Hello")
        #expect(try await handle.hits() == 0)
        #expect(try await handle.nearMisses().map(\.reason) == ["method GET is not POST"])
        _ = try await client.send("POST", "/test/api/Hello", json: "{}")
        #expect(try await handle.hits() == 1)
        #expect(try await handle.nearMisses().isEmpty)
        let listed = try await mock.stubs()
        #expect(listed.map(\.id) == [handle.id] && listed.first?.priority == 5 && listed.first?.definition?.match == .post("/test/api/Hello"))
        try await handle.remove()
        #expect(try await mock.stubs().isEmpty)
        await #expect(throws: MockStackControlError.self) { try await handle.hits() }
    }

    @Test func sessionsAreListedAndResetByName() async throws {
        let session = mock.session()
        _ = try await FeathersClient(base: session.controlBase.absoluteString).send("GET", "/test/api/Hello")
        #expect(try await mock.sessions().map(\.id) == [session.id])
        #expect(try await mock.sessions().first?.requests == 1)
        try await mock.reset(session: session.id)
        #expect(try await session.requests().isEmpty)
        await #expect(throws: MockStackControlError.self) { try await mock.reset(session: "nobody") }
    }

    @Test func theSharedServerGivesEachCallAFreshSession() async throws {
        let ids = try await withMockStackSession(apps: ["feathers"]) { first in
            try await withMockStackSession(apps: ["feathers"]) { second in
                let client = FeathersClient(base: first.controlBase.absoluteString)
                _ = try await client.send("POST", "/feathers/people", json: #"{"name": "First"}"#)
                #expect(try await FeathersClient(base: second.controlBase.absoluteString).send("GET", "/feathers/people").json.names == [])
                return [first.id, second.id]
            }
        }
        #expect(Set(ids).count == 2)
        // One server for each set of apps, in any order; it loads only those.
        let feathers = try await SharedMockStack.server(apps: ["feathers"])
        #expect(feathers.ready.apps.map(\.name) == ["feathers"])
        #expect(try await SharedMockStack.server(apps: ["feathers", "feathers"]).ready.port == feathers.ready.port)
        let two = try await SharedMockStack.server(apps: ["feathers", "example"])
        #expect(two.ready.apps.map(\.name) == ["example", "feathers"])
        #expect(try await SharedMockStack.server(apps: ["example", "feathers"]).ready.port == two.ready.port)
        #expect(two.ready.port != feathers.ready.port)
    }
}

/// Under XCTest the same expectation fails through XCTFail, at the caller's line.
final class XCTestExpectationLineTests: XCTestCase {
    private var captured: [(message: String, line: Int)] = []
    private var capturing = false

    #if os(Linux)
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { captured.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #else
    override func record(_ issue: XCTIssue) {
        if capturing { captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0)) } else { super.record(issue) }
    }
    #endif

    func testAFailedExpectationPointsAtTheCall() async throws {
        let session = try startMockStackSession()
        capturing = true
        let line = #line + 1
        try await session.expectRequests(app: "test", count: 2)
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(captured.first?.message.contains("expected 2 request(s) with app test, found 0") == true, captured.first?.message ?? "")
    }
}
