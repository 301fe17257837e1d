import MockStackWebSocket
import Testing

/// The WebSocket layer end to end against a real client: PyPI's `websockets` (Python), on the
/// real server over loopback. Skipped without the client, unless make test requires it.
@Suite(.timeLimit(.minutes(3)), .enabled(if: PythonClient.python != nil || PythonClient.required, "\(PythonClient.missingMessage)"))
struct WebSocketClientTests {
    func run(_ scenario: String, _ check: (String, EchoServer) throws -> Void) throws {
        guard PythonClient.python != nil else {
            Issue.record("\(PythonClient.missingMessage)")
            return
        }
        let server = try EchoServer()
        defer { server.stop() }
        try check(try PythonClient.scenario(scenario, port: server.port), server)
    }

    @Test func echoesTextAndBinaryMessages() throws {
        try run("echo") { output, _ in
            #expect(output == #"{"bigEchoed": true, "binary": [0, 1, 255], "text": "hello, wörld"}"#)
        }
    }

    @Test func joinsTheClientsFragments() throws {
        try run("fragmented") { output, _ in
            #expect(output == #"{"binary": [1, 2, 3], "text": "fragmented ✓"}"#)
        }
    }

    @Test func answersPings() throws {
        try run("ping") { output, _ in #expect(output == #"{"pong": true}"#) }
    }

    /// The client's close code comes back; the app hears the client's code and reason.
    @Test func echoesTheClientsClose() throws {
        try run("client_close") { output, server in
            #expect(output == #"{"receivedCode": 4001, "receivedReason": "", "sentCode": 4001}"#)
            #expect(server.waitForClose())
            #expect(server.closeList == ["/echo 4001 client done"])
        }
    }

    @Test func closesWhenTheAppAsks() throws {
        try run("server_close") { output, server in
            #expect(output == #"{"code": 4000, "echoedCode": 4000, "reason": "as asked"}"#)
            #expect(server.waitForClose())
            #expect(server.closeList == ["/echo 4000 as asked"])
        }
    }

    @Test func closesWith1009OnAMessageOverTheLimit() throws {
        try run("too_big") { output, _ in
            #expect(output == #"{"code": 1009, "reason": "a message over the limit of 1024 bytes"}"#)
        }
    }

    /// A REST request, answered on whichever loop took it, sends to sockets on any loop.
    @Test func aRequestSendsToEveryOpenSocket() throws {
        try run("broadcast") { output, _ in
            #expect(output == #"{"first": "news", "second": "news", "status": 200}"#)
        }
    }
}
