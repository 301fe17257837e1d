import Foundation
import MockStack
import MockStackTesting
import Testing
import TestSupport
import XCTest

/// The helper client libraries use: spawned and in-process modes, teardown on failure.
@Suite(.timeLimit(.minutes(1)))
struct MockStackTestingTests {
    @Test func spawnsTheBinaryAndStopsIt() throws {
        let mock = try MockStackProcess.launch()
        #expect(mock.ready.apps.map(\.name) == ["ai", "example", "feathers", "techstacks", "test"])
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
            _ = try MockStackProcess.launch(fixtures: root)
            Issue.record("launch should have failed")
        } catch let error as MockStackLaunchError {
            #expect(error.message.contains("exited with status 2 before it was ready"))
            #expect(error.message.contains("app.json:1:2: invalid JSON"))
        }
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
        let url = mock.url(for: "example").appendingPathComponent("hello")
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
