import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import MockStackTransport
import Testing
import TestSupport

/// `POST /__mockstack/requests/wait` on the real server over loopback: the one loop keeps
/// answering while a wait is outstanding, a request on another connection completes it, the
/// timeout answers 408, clients that leave release their waits, and `waitForRequest` does all
/// that for a Swift test.
@Suite(.timeLimit(.minutes(3)))
struct RequestWaitTests {
    let mock: InProcessMockStack
    var port: Int { mock.ready.port }

    init() throws {
        mock = try InProcessMockStack.shipped(["example", "test"]) { $0.transport.threads = 1 }
    }

    private static func waitRequest(_ body: String, prefix: String = "") -> String {
        "POST \(prefix)/__mockstack/requests/wait HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// How many waits the control plane counts (`GET requests/wait`), read again until it
    /// counts `expected` or 20 s have passed: a wait sent on another connection (or by
    /// URLSession, from another task) is read by the server at a time of its own. Each read is
    /// a round trip, and the first that sees the count ends it.
    private func waiting(reaches expected: Int, prefix: String = "") throws -> Int {
        let deadline = ContinuousClock.now + .seconds(20)
        var count = -1
        while ContinuousClock.now < deadline {
            let reply = try rawExchange(port: port, "GET \(prefix)/__mockstack/requests/wait HTTP/1.1\r\nHost: t\r\n\r\n")
            count = (try JSONParser().parse(reply.body).root)["waiting"]?.intValue ?? -1
            if count == expected { break }
        }
        return count
    }

    @Test func theOneLoopAnswersOthersWhileAWaitIsOutstandingAndARequestElsewhereCompletesIt() throws {
        let waiter = try RawConnection(port: port)
        // The pipelined request behind the wait is answered after it, as HTTP/1.1 requires.
        try waiter.send(Self.waitRequest(#"{"pattern": {"path": "/example/widgets"}, "timeoutMs": 20000}"#)
            + "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try waiting(reaches: 1) == 1)
        for _ in 0..<3 {
            #expect(try rawExchange(port: port, "GET /test/api/Hello?name=Loop HTTP/1.1\r\nHost: t\r\n\r\n").text == #"{"result":"Hello, Loop!"}"#)
        }
        #expect(try waiting(reaches: 1) == 1, "a request that does not match leaves it waiting")
        let widgets = try rawExchange(port: port, "GET /example/widgets?page=2 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(widgets.status == 200)
        let replies = try waiter.readResponses(2)
        let found = replies[0]
        #expect(found.status == 200 && found.header("Content-Type") == "application/json; charset=utf-8")
        let entry = try JSONParser().parse(found.body).root
        #expect(entry["path"] == "/example/widgets" && entry["query"] == "page=2" && entry["app"] == "example" && entry["status"] == 200)
        #expect(replies[1].status == 200 && replies[1].text == #"{"result":"Hello, World!"}"#, "then the pipelined request")
        #expect(try waiting(reaches: 0) == 0)
    }

    @Test func theTimeoutIsA408InTheControlPlanesFormatOnAConnectionThatGoesOn() throws {
        let connection = try RawConnection(port: port)
        try connection.send(Self.waitRequest(#"{"pattern": {"path": "/never"}, "timeoutMs": 50}"#))
        let reply = try connection.readResponse()
        #expect(reply.status == 408)
        #expect(reply.text == #"{"status":408,"error":"Request Timeout","message":"No request matching the pattern was recorded within 50 ms"}"#)
        try connection.send("GET /__mockstack/requests/wait HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().text == #"{"waiting":0,"limit":256}"#)
    }

    @Test func clientsThatLeaveReleaseTheirWaits() throws {
        var connections: [RawConnection] = []
        for _ in 0..<40 {
            let connection = try RawConnection(port: port)
            try connection.send(Self.waitRequest(#"{"pattern": {"path": "/never"}, "timeoutMs": 60000}"#))
            connections.append(connection)
        }
        #expect(try waiting(reaches: 40) == 40)
        connections.removeAll()  // each socket closes
        #expect(try waiting(reaches: 0) == 0)
        #expect(try rawExchange(port: port, "GET /never HTTP/1.1\r\nHost: t\r\n\r\n").status == 404, "and the server goes on")
    }

    @Test func aSessionsWaitSeesOnlyItsOwnRequests() throws {
        let waiter = try RawConnection(port: port)
        try waiter.send(Self.waitRequest(#"{"pattern": {"path": "/example/hello"}}"#, prefix: "/__session/w1"))
        #expect(try waiting(reaches: 1, prefix: "/__session/w1") == 1)
        _ = try rawExchange(port: port, "GET /example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try rawExchange(port: port, "GET /__session/w2/example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try waiting(reaches: 1, prefix: "/__session/w1") == 1)
        _ = try rawExchange(port: port, "GET /__session/w1/example/hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let found = try waiter.readResponse()
        #expect(found.status == 200)
        let entry = try JSONParser().parse(found.body).root
        #expect(entry["session"] == "w1" && entry["id"] == 1)
    }

    @Test func theAdminTokenGuardsItAsTheOtherEndpoints() throws {
        let guarded = try InProcessMockStack.shipped(["example"]) { $0.adminToken = "sesame" }
        let refused = try rawExchange(port: guarded.ready.port, Self.waitRequest("{}"))
        #expect(refused.status == 401)
        let body = #"{"timeoutMs": 0}"#
        let admitted = try rawExchange(port: guarded.ready.port,
                                       "POST /__mockstack/requests/wait HTTP/1.1\r\nHost: t\r\nX-MockStack-Admin-Token: sesame\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(admitted.status == 408)
    }

    @Test func waitForRequestReturnsWhatAnotherTaskSends() async throws {
        let session = mock.session()
        // Which of the two tasks runs first is the cooperative pool's choice: either way the
        // wait returns the request (the raw-socket tests above show the wait held open). Its
        // timeout is long because a pool starved by other tests' blocking work may run the
        // sender much later; it returns as soon as the request is journaled.
        let wait = Task { try await session.waitForRequest(matching: .get("/example/widgets"), timeout: .seconds(120)) }
        let sender = Task {
            let url = try session.url(for: "example").appending(path: "widgets")
            _ = try await URLSession.shared.data(from: url)
        }
        let found = try #require(try await wait.value)
        try await sender.value
        #expect(found.path == "/example/widgets" && found.session == session.id && found.app == "example" && found.status == 200)
        // One already journaled answers at once; `since` asks for a later one.
        #expect(try await session.waitForRequest(matching: .get("/example/widgets"))?.id == found.id)
        await #expect(throws: RequestWaitTimeout.self) {
            try await session.nextRequest(matching: .get("/example/widgets"), timeout: .milliseconds(50), since: found.id)
        }
    }

    @Test func waitForRequestFailsTheTestWhenNothingComes() async throws {
        let session = mock.session()
        _ = try await URLSession.shared.data(from: try session.url(for: "example").appending(path: "hello"))
        try await withKnownIssue {
            let found = try await session.waitForRequest(matching: .post("/example/widgets"), timeout: .milliseconds(50))
            #expect(found == nil)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains(#"no request matching {"method":"POST","path":"/example/widgets"} was recorded within 50 ms"#)
                && text.contains("#1 GET /example/hello → 200 [app example")
        }
    }

    @Test func anUnmatchedRequestIsJournaledWithoutAnApp() async throws {
        let session = mock.session()
        let (_, response) = try await URLSession.shared.data(from: session.controlBase.appending(path: "nowhere"))
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        let entry = try #require(try await session.waitForRequest(matching: .get("/nowhere")))
        #expect(entry.app == nil && entry.json["app"] == .null)
    }
}
