import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import Testing
import TestSupport

/// The real-time bounds on the real server over loopback, with Engine.IO spoken by hand: a
/// polling client that stops polling, and what the socket journal keeps of its answers
/// (docs/feathers-realtime.md#limits).
@Suite(.timeLimit(.minutes(3)))
struct RealtimeBoundsTests {
    static func exchange(_ port: Int, _ method: String, _ target: String, body: String = "",
                         type: String = "text/plain;charset=UTF-8") throws -> (status: Int, body: String) {
        let request = "\(method) \(target) HTTP/1.1\r\nHost: t\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let response = try rawExchange(port: port, request)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func aClientThatStopsPollingLosesItsSessionAndTheJournalCutsItsAnswers() throws {
        let mock = try InProcessMockStack.shipped { _ in }
        defer { mock.stop() }
        let port = mock.ready.port
        let base = "/__session/bounds/feathers"
        let record = #"{"name":"\#(String(repeating: "x", count: 200_000))"}"#
        #expect(try Self.exchange(port, "POST", base + "/people", body: record, type: "application/json").status == 201)
        let opened = try Self.exchange(port, "GET", base + "/socket.io/?EIO=4&transport=polling")
        let sid = try #require(JSONParser().parse(String(opened.body.dropFirst())).root["sid"]?.stringValue)
        let session = base + "/socket.io/?EIO=4&transport=polling&sid=" + sid
        // Each answer is about 200 KB: the 21st would take the waiting ones past 4 MiB.
        let finds = (1...50).map { #"42\#($0)["find","people"]"# }
        let posted = try Self.exchange(port, "POST", session, body: (["40"] + finds).joined(separator: "\u{1E}"))
        #expect(posted.status == 200 && posted.body == "ok")
        let next = try Self.exchange(port, "GET", session)
        #expect(next.status == 400)
        #expect(next.body == #"{"code":1,"message":"Session ID unknown"}"#)

        let listed = try Self.exchange(port, "GET", "/__session/bounds/__mockstack/sockets/activity?kind=call")
        let calls = try #require(JSONParser().parse(listed.body).root["activity"]?.arrayValue)
        #expect(calls.count == 21)
        for call in calls {
            #expect(call["name"] == "people.find")
            #expect(call["data"] == ["people"])
            #expect(call["answerTruncated"] == true)
            #expect(call["answerSize"] == .number(JSONNumber(200_027)))
            #expect(call["answer"]?.stringValue == #"[null,[{"name":""# + String(repeating: "x", count: 16 * 1024 - 16))
        }
    }

    /// `socketio` in the manifest sets what a Feathers app gives `socketio()`: the handshake
    /// announces it and the server keeps to it.
    @Test func theManifestSetsTheSocketIOOptions() throws {
        let server = try FeathersTestServer(
            services: #"{"people": {}}"#, members: #""socketio": {"pingInterval": 600000, "pingTimeout": 5000, "maxHttpBufferSize": 100},"#)
        let port = server.mock.ready.port
        let opened = try Self.exchange(port, "GET", "/suite/socket.io/?EIO=4&transport=polling")
        #expect(opened.status == 200)
        let handshake = try JSONParser().parse(String(opened.body.dropFirst())).root
        #expect(handshake["pingInterval"] == 600000 && handshake["pingTimeout"] == 5000 && handshake["maxPayload"] == 100)
        let session = "/suite/socket.io/?EIO=4&transport=polling&sid=" + (handshake["sid"]?.stringValue ?? "")
        #expect(try Self.exchange(port, "POST", session, body: "40").status == 200)
        let tooLong = "42" + #"["create","people",{"name":"\#(String(repeating: "x", count: 100))"}]"#
        #expect(try Self.exchange(port, "POST", session, body: tooLong).status == 413)

        let manifest = #"{"kind": "feathers", "socketio": {"pingInterval": "fast", "pingTimout": 1, "pingTimeout": 0}, "services": {"a": {}}}"#
        let problems = manifestProblems(manifest)
        #expect(problems == [
            "/socketio/pingInterval: expected an integer, found string",
            "/socketio/pingTimeout: 0 is out of range 10...86400000",
            "/socketio/pingTimout: unknown key 'pingTimout' (expected one of: maxHttpBufferSize, pingInterval, pingTimeout)",
        ], "\(problems)")
        #expect(manifestProblems(#"{"kind": "feathers", "socketio": 25000, "services": {"a": {}}}"#) == [
            "/socketio: expected an object (maxHttpBufferSize, pingInterval, pingTimeout), found number"
        ])
    }
}
