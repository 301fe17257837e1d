import Foundation
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
}
