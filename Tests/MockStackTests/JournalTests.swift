import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing

/// The request journal and reset of the control plane, over loopback.
@Suite(.timeLimit(.minutes(3)))
struct JournalTests {
    private func server(journalSize: Int = 1000, bodyBytes: Int = 16 * 1024) throws -> (InProcessMockStack, FeathersClient) {
        let mock = try InProcessMockStack.shipped {
            $0.journalSize = journalSize
            $0.journalBodyBytes = bodyBytes
        }
        return (mock, FeathersClient(mock))
    }

    @Test func jsonFormAndMultipartRequestsAreRecorded() async throws {
        let (mock, client) = try server()
        defer { mock.stop() }
        _ = try await client.send("POST", "/test/api/Hello?x=1", json: #"{"name":"World"}"#, headers: ["X-Trace": "a"])
        _ = try await client.send("POST", "/feathers/authentication", form: "email=test%40example.com&password=secret&strategy=local")
        let boundary = "b0undary"
        var upload = URLRequest(url: URL(string: client.base + "/test/api/SpeechToText")!)
        upload.httpMethod = "POST"
        upload.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        upload.httpBody = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\nz\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF1234\r\n--\(boundary)--\r\n".utf8)
        _ = try await FeathersClient.session.data(for: upload)

        let journal = try await client.send("GET", "/__mockstack/requests").json
        let entries = try #require(journal["requests"]?.arrayValue)
        #expect(entries.count == 3 && journal["total"] == 3 && journal["dropped"] == 0 && journal["capacity"] == 1000)
        let hello = entries[0]
        #expect(hello["app"] == "test" && hello["method"] == "POST" && hello["path"] == "/test/api/Hello" && hello["query"] == "x=1")
        #expect(hello["operation"] == "Hello" && hello["status"] == 200 && hello["session"] == .null && hello["stub"] == .null)
        #expect(hello["headers"]?["X-Trace"] == "a" && hello["headers"]?["Content-Type"] == "application/json")
        #expect(hello["body"] == ["size": 16, "truncated": false, "text": #"{"name":"World"}"#])
        if case .number(let milliseconds)? = hello["durationMs"] { #expect(milliseconds.doubleValue >= 0) } else { Issue.record("no durationMs") }
        #expect(hello["id"]?.intValue == 1 && hello["time"]?.stringValue?.hasSuffix("Z") == true)
        #expect(entries[1]["operation"] == "authentication.create" && entries[1]["status"] == 201)
        #expect(entries[1]["body"]?["text"] == "email=test%40example.com&password=secret&strategy=local")
        #expect(entries[2]["parts"] == [["name": "tag", "fileName": .null, "contentType": .null, "size": 1],
                                         ["name": "audio", "fileName": "a.wav", "contentType": "audio/wav", "size": 8]])
    }

    @Test func filtersLimitsAndClearing() async throws {
        let (mock, client) = try server()
        defer { mock.stop() }
        _ = try await client.send("GET", "/example/hello")
        _ = try await client.send("GET", "/test/hello/A")
        _ = try await client.send("POST", "/test/api/Hello", json: #"{"name":"B"}"#)
        _ = try await client.send("GET", "/feathers/people")
        func ids(_ query: String) async throws -> [Int] {
            try await client.send("GET", "/__mockstack/requests" + query).json["requests"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        }
        #expect(try await ids("?app=test") == [2, 3])
        #expect(try await ids("?method=post") == [3])
        #expect(try await ids("?path=/test/hello") == [], "path is exact")
        #expect(try await ids("?path=/test/hello/A") == [2])
        #expect(try await ids("?pathPrefix=/test/hello") == [2])
        #expect(try await ids("?operation=people.find") == [4])
        #expect(try await ids("?since=2") == [3, 4])
        #expect(try await ids("?since=2000-01-01T00:00:00Z&limit=2") == [3, 4])
        #expect(try await client.send("GET", "/__mockstack/requests?colour=red").status == 400)
        #expect(try await client.send("GET", "/__mockstack/requests?limit=-1").json["message"] == "limit: expected a whole number ≥ 0, found '-1'")
        #expect(try await client.send("GET", "/__mockstack/requests?since=yesterday").status == 400)
        #expect(try await client.send("DELETE", "/__mockstack/requests").status == 204)
        #expect(try await ids("") == [])
        // Ids keep counting.
        _ = try await client.send("GET", "/example/hello")
        #expect(try await ids("") == [5])
    }

    @Test func theRingIsBoundedAndBodiesAreCapped() async throws {
        let (mock, client) = try server(journalSize: 3, bodyBytes: 4)
        defer { mock.stop() }
        for index in 0..<5 { _ = try await client.send("POST", "/test/api/Hello", json: #"{"name":"\#(index)"}"#) }
        var binary = URLRequest(url: URL(string: client.base + "/test/api/Hello")!)
        binary.httpMethod = "POST"
        binary.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        binary.httpBody = Data([0xFF, 0x00, 0x01])
        _ = try await FeathersClient.session.data(for: binary)
        let journal = try await client.send("GET", "/__mockstack/requests").json
        #expect(journal["requests"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [4, 5, 6])
        #expect(journal["dropped"] == 3)
        #expect(journal["requests"]?.arrayValue?.first?["body"] == ["size": 12, "truncated": true, "text": #"{"na"#])
        #expect(journal["requests"]?.arrayValue?.last?["body"] == ["size": 3, "truncated": false, "base64": "/wAB"])
    }

    @Test func resetRestoresStateAndEmptiesTheJournal() async throws {
        let (mock, client) = try server()
        defer { mock.stop() }
        _ = try await client.send("POST", "/feathers/people", json: #"{"name": "Ann"}"#)
        #expect(try await client.send("GET", "/feathers/people").json.names == ["Ann"])
        let one = try await client.send("POST", "/__mockstack/reset?app=feathers")
        #expect(one.status == 200 && one.json == ["reset": ["feathers"]])
        #expect(try await client.send("GET", "/feathers/people").json == [])
        _ = try await client.send("POST", "/feathers/people", json: #"{"name": "Bo"}"#)
        #expect(try await client.send("POST", "/__mockstack/reset").json == ["reset": ["example", "feathers", "test"]])
        #expect(try await client.send("GET", "/__mockstack/requests").json["requests"] == [])
        // Automatic ids start again from the seed.
        #expect(try await client.send("POST", "/feathers/people", json: #"{"name": "Cy"}"#).json == ["name": "Cy", "id": 0])
        #expect(try await client.send("POST", "/__mockstack/reset?app=nope").status == 404)
        #expect(try await client.send("GET", "/__mockstack/reset").status == 405)
    }

    @Test func aJournalOfSizeZeroRecordsNothing() async throws {
        let (mock, client) = try server(journalSize: 0)
        defer { mock.stop() }
        _ = try await client.send("GET", "/example/hello")
        #expect(try await client.send("GET", "/__mockstack/requests").json["requests"] == [])
    }
}
