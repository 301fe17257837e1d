import Foundation
@testable import MockStack
@testable import MockStackControl
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// A journal entry is bounded whatever the request (path, query, headers,
/// multipart parts), and says what it cut.
@Suite(.timeLimit(.minutes(3)))
struct JournalBoundsTests {
    private func lastEntry(_ mock: InProcessMockStack) throws -> JSONValue {
        let response = try rawExchange(port: mock.ready.port, "GET /__mockstack/requests HTTP/1.1\r\nHost: t\r\n\r\n")
        return try #require(JSONParser().parse(response.body).root["requests"]?.arrayValue?.last)
    }

    @Test func theTargetAndHeadersAreCutAtTheirBounds() throws {
        let mock = try InProcessMockStack.shipped { _ in }
        defer { mock.stop() }
        // 12 fields of 1,029 bytes once cut (a 5-byte name, a 1,500-byte value cut to 1,024),
        // after `Host: t` (5 bytes): 7 fit in 8,192 bytes, the 8th would make 8,237.
        var request = "GET /test/api/Hello?name=" + String(repeating: "q", count: 3_000) + " HTTP/1.1\r\nHost: t\r\n"
        for index in 0..<12 { request += "X-H\(index < 10 ? "0" : "")\(index): " + String(repeating: "v", count: 1_500) + "\r\n" }
        #expect(try rawExchange(port: mock.ready.port, request + "\r\n").status == 200)
        let entry = try lastEntry(mock)
        #expect(entry["query"]?.stringValue == "name=" + String(repeating: "q", count: 2_043))
        #expect(entry["queryTruncated"] == true && entry["pathTruncated"] == nil && entry["headersTruncated"] == true)
        let headers = try #require(entry["headers"]?.objectValue)
        #expect(headers.map(\.key) == ["Host", "X-H00", "X-H01", "X-H02", "X-H03", "X-H04", "X-H05", "X-H06"])
        #expect(headers["X-H06"]?.stringValue == String(repeating: "v", count: 1_024))

        let longPath = "/test/api/" + String(repeating: "p", count: 3_000)
        _ = try rawExchange(port: mock.ready.port, "GET \(longPath) HTTP/1.1\r\nHost: t\r\n\r\n")
        let second = try lastEntry(mock)
        #expect(second["path"]?.stringValue == String(longPath.prefix(2_048)))
        #expect(second["pathTruncated"] == true && second["queryTruncated"] == nil && second["headersTruncated"] == nil)
    }

    @Test func multipartPartsAreDescribedWithinTheirBounds() throws {
        let mock = try InProcessMockStack.shipped { _ in }
        defer { mock.stop() }
        var body = ""
        for index in 0..<40 {
            body += "--b\r\nContent-Disposition: form-data; name=\"\(index)\(String(repeating: "n", count: 300))\"; filename=\"f\"\r\n\r\nxy\r\n"
        }
        body += "--b--\r\n"
        let request = "POST /test/api/Hello HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        #expect(try rawExchange(port: mock.ready.port, request).status == 200)
        let entry = try lastEntry(mock)
        let parts = try #require(entry["parts"]?.arrayValue)
        #expect(parts.count == 32 && entry["partsDropped"] == 8)
        #expect(parts[0] == ["name": .string("0" + String(repeating: "n", count: 255)), "fileName": "f", "contentType": .null, "size": 2,
                             "truncated": true])
        #expect(parts[31]["name"]?.stringValue?.hasPrefix("31nnn") == true && parts[31]["name"]?.stringValue?.utf8.count == 256)
    }

    @Test func textIsCutAtAScalarBoundary() {
        #expect(JournalBounds.cut("abc", 3) == nil)
        #expect(JournalBounds.cut("abcd", 3) == "abc")
        // "é" is two bytes: a cut through it keeps none of it.
        #expect(JournalBounds.cut("aéé", 4) == "aé")
        #expect(JournalBounds.cut("aéé", 3) == "aé")
        #expect(JournalBounds.cut("aéé", 2) == "a")
        #expect(JournalBounds.cut("😀", 3) == "")
    }

    @Test func anEntryWithinEveryBoundSharesTheRequest() {
        let request = HTTPRequest(method: .get, target: "/a?b=c", headers: ["Host": "t"], body: Array("xyz".utf8))
        let (kept, cuts, _) = JournalBounds.kept(request, bodyLimit: 2)
        #expect(cuts == JournalBounds.Cuts() && kept.path == "/a" && kept.query == "b=c" && kept.body == Array("xy".utf8))
        let long = HTTPRequest(method: .get, target: "/a?" + String(repeating: "q", count: 5_000))
        let (cut, marks, _) = JournalBounds.kept(long, bodyLimit: 2)
        #expect(marks.query && !marks.path && cut.query?.utf8.count == 2_048 && cut.target.utf8.count == 2 + 1 + 2_048)
    }
}
