import Dispatch
import MockStackCore
@testable import MockStackTransport
import Synchronization
import Testing
import TestSupport

/// `Delivery.deferred` over loopback: the loop stays free while an answer is awaited, a
/// completion from another thread wakes it, and the timeout, a client that leaves and a
/// graceful stop each end the wait once.
@Suite(.timeLimit(.minutes(3)))
struct DeferredAnswerTests {
    /// The answers `/wait` handed out and how each ended, for the test to complete from its
    /// own thread (which is no loop's).
    final class Waits: Sendable {
        let timeoutMilliseconds: Int
        private let answers = Mutex<[DeferredAnswer]>([])
        private let endings = Mutex<[DeferredAnswer.Ending]>([])
        let handedOut = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)

        init(timeoutMilliseconds: Int = 30_000) { self.timeoutMilliseconds = timeoutMilliseconds }

        /// `/wait` is deferred (a 408 if its time passes); anything else is echoed at once.
        func respond(_ request: HTTPRequest) -> HTTPResponse {
            guard request.path == "/wait" else { return .json(200, ["path": .string(request.path)]) }
            let answer = DeferredAnswer(timeoutMilliseconds: timeoutMilliseconds) { [self] ending in
                endings.withLock { $0.append(ending) }
                ended.signal()
            }
            answers.withLock { $0.append(answer) }
            handedOut.signal()
            var timedOut = HTTPResponse.json(408, ["timedOut": true])
            timedOut.delivery = .deferred(answer)
            return timedOut
        }

        /// The next answer handed out, once the responder has returned it.
        func next() throws -> DeferredAnswer {
            guard handedOut.wait(timeout: .now() + 5) == .success else { throw RawHTTPError("no deferred answer was handed out") }
            return answers.withLock { $0.removeFirst() }
        }

        /// The next ending, once it has happened.
        func nextEnding() throws -> DeferredAnswer.Ending {
            guard ended.wait(timeout: .now() + 5) == .success else { throw RawHTTPError("no wait ended") }
            return endings.withLock { $0.removeFirst() }
        }
    }

    private static func withServer(_ waits: Waits, _ body: (Int, HTTPServer) throws -> Void) throws {
        try TransportTests.withServer(TransportConfiguration(threads: 1), respond: waits.respond, body)
    }

    @Test func theLoopStaysFreeAndACompletionFromAnotherThreadIsSentBeforeWhatWasPipelinedBehind() throws {
        let waits = Waits()
        try Self.withServer(waits) { port, _ in
            let waiting = try RawConnection(port: port)
            try waiting.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\nGET /behind HTTP/1.1\r\nHost: t\r\n\r\n")
            let answer = try waits.next()
            // The one loop answers others meanwhile.
            for path in ["/a", "/b"] {
                #expect(try rawExchange(port: port, "GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n").text == #"{"path":"\#(path)"}"#)
            }
            #expect(answer.complete(with: .json(201, ["done": true])))
            let replies = try waiting.readResponses(2)
            #expect(replies[0].status == 201 && replies[0].text == #"{"done":true}"#)
            #expect(replies[1].status == 200 && replies[1].text == #"{"path":"/behind"}"#)
            #expect(try waits.nextEnding() == .completed)
        }
    }

    @Test func theTimeoutSendsTheResponseThatCarriedTheDeliveryAndTheConnectionGoesOn() throws {
        let waits = Waits(timeoutMilliseconds: 30)
        try Self.withServer(waits) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
            let answer = try waits.next()
            let reply = try connection.readResponse()
            #expect(reply.status == 408 && reply.text == #"{"timedOut":true}"#)
            #expect(try waits.nextEnding() == .timedOut)
            #expect(!answer.complete(with: .json(200, [:])), "too late")
            try connection.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().text == #"{"path":"/next"}"#)
        }
    }

    @Test func aClientThatLeavesReleasesTheWaitAndItsConnection() throws {
        let waits = Waits()
        try Self.withServer(waits) { port, server in
            var connection: RawConnection? = try RawConnection(port: port)
            try connection?.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
            let answer = try waits.next()
            connection = nil  // closes the socket
            #expect(try waits.nextEnding() == .dropped)
            #expect(!answer.complete(with: .json(200, [:])))
            #expect(server.openConnectionCount() == 0)
        }
    }

    @Test func aCompletionBeforeTheTransportTakesTheAnswerUpIsSentAtOnce() throws {
        try TransportTests.withServer(respond: { _ in
            let answer = DeferredAnswer(timeoutMilliseconds: 30_000)
            answer.complete(with: .json(200, ["early": true]))
            var response = HTTPResponse.json(408, [:])
            response.delivery = .deferred(answer)
            return response
        }) { port, _ in
            let reply = try rawExchange(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(reply.status == 200)
            #expect(reply.text == #"{"early":true}"#)
        }
    }

    @Test func aGracefulStopAnswersAnAwaitedRequestWith503() throws {
        let waits = Waits()
        let server = HTTPServer(configuration: TransportConfiguration(threads: 1),
                                listeners: [ListenerSpec(label: "main", port: 0, responder: ClosureResponder(waits.respond))])
        let port = try server.start()[0].port
        let connection = try RawConnection(port: port)
        try connection.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
        let answer = try waits.next()
        server.shutdown()
        let reply = try connection.readResponse()
        #expect(reply.status == 503 && reply.header("Connection") == "close")
        #expect(reply.text.contains("The server is stopping"))
        #expect(try waits.nextEnding() == .dropped)
        #expect(!answer.complete(with: .json(200, [:])))
    }
}
