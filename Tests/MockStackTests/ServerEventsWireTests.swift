import Foundation
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The `test` app's Server Events on the wire, byte for byte over a raw socket, and its answers
/// to bad input (docs/servicestack-server-events.md).
@Suite(.timeLimit(.minutes(3)))
struct ServerEventsWireTests {
    /// The head as ServiceStack sends it with the test host's CORS headers, chunked; the first
    /// chunk holds `cmd.onConnect` and the join, the meta keys in the documented order; after an
    /// unregister the last chunk and the close.
    @Test func theStreamOnTheWire() throws {
        let server = try ServerEventsServer()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        let stream = try EventStreamConnection(port: port, path: "/test/event-stream?channels=home")
        stream.read { $0.chunks.complete.count >= 1 }
        let head = try #require(stream.head).components(separatedBy: "\r\n")
        #expect(Array(head.dropLast()) == [
            "HTTP/1.1 200 OK", "Content-Type: text/event-stream", "Cache-Control: no-cache", "X-Accel-Buffering: no",
            "Access-Control-Allow-Methods: GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD",
            "Access-Control-Allow-Headers: Content-Type, Allow, Authorization, X-Args",
            "Access-Control-Allow-Credentials: true", "Access-Control-Max-Age: 600", "Transfer-Encoding: chunked",
        ])
        #expect(head.last?.hasPrefix("Date: ") == true && head.last?.hasSuffix(" GMT") == true)

        let first = try #require(stream.chunks.complete.first)
        let id = try #require(stream.subscriptionID)
        let createdAt = try #require(EventStreamConnection.field("createdAt", in: first))
        let profileUrl = try #require(EventStreamConnection.field("profileUrl", in: first))
        #expect(id.count == 20 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(profileUrl.hasPrefix("data:image/svg+xml,"))
        let meta = #"{"channels":"home","userId":"-1","profileUrl":"\#(profileUrl)","createdAt":"\#(createdAt)","#
            + #""isAuthenticated":"false","displayName":"user1""#
        let base = "http://127.0.0.1:\(port)/test"
        let connect = meta + #","id":"\#(id)","unRegisterUrl":"\#(base)/event-unregister?id=\#(id)","#
            + #""heartbeatUrl":"\#(base)/event-heartbeat?id=\#(id)","#
            + #""updateSubscriberUrl":"\#(base)/event-subscribers/\#(id)","#
            + #""heartbeatIntervalMs":"10000","idleTimeoutMs":"30000"}"#
        #expect(first == "id: 1\ndata: cmd.onConnect \(connect)\n\nid: 2\ndata: home@cmd.onJoin \(meta)}\n\n")

        let unregistered = try rawExchange(
            port: port, "POST /test/event-unregister?id=\(id) HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        #expect(unregistered.status == 200 && unregistered.text == meta + "}")
        #expect(stream.readToEnd() == .closed)
        #expect(stream.chunks.last)
        #expect(Array(stream.received.suffix(7)) == Array("\n\n\r\n0\r\n\r\n".utf8).suffix(7))
    }

    /// Unknown ids, a channel with `@`, and no channel at all, each with its documented answer.
    @Test func badInputHasItsDocumentedAnswers() throws {
        let server = try ServerEventsServer()
        defer { server.stop() }
        let mock = server.mock
        let port = mock.ready.port
        func post(_ path: String, _ body: String = "") throws -> RawResponse {
            try rawExchange(port: port, "POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        let heartbeat = try post("/test/event-heartbeat?id=nope%27%3C")
        #expect(heartbeat.statusLine == "HTTP/1.1 404 Subscription 'nope' does not exist" && heartbeat.body.isEmpty)
        let unregister = try post("/test/event-unregister?id=nope")
        #expect(unregister.statusLine == "HTTP/1.1 404 Not Found")
        #expect(unregister.text.hasPrefix(
            #"{"responseStatus":{"errorCode":"NotFound","message":"Subscription nope does not exist""#))
        let update = try post("/test/api/UpdateEventSubscriber", #"{"id":"nope","subscribeChannels":["a"]}"#)
        #expect(update.status == 404 && update.text.contains(#""message":"Subscription nope does not exist""#))

        let refused = try rawExchange(port: port, "GET /test/event-stream?channels=a@b HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(refused.status == 400 && refused.text.contains(#""errorCode":"ArgumentException""#))

        let everyone = try EventStreamConnection(port: port, path: "/test/event-stream")
        #expect(everyone.frames(2).last?.hasPrefix(#"*@cmd.onJoin {"channels":"*""#) == true)
    }
}
