import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The `ai` app's operations that have no behaviour of their own, over loopback: each answers by
/// its metadata (its request echoed onto its response type, or `204` when it returns nothing),
/// behind AI Server's bearer API key where its DTO has `[ValidateApiKey]`.
@Suite(.timeLimit(.minutes(3)))
struct AIServerSurfaceTests {
    let mock: InProcessMockStack

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["ai"]))
    }

    private func send(_ method: String, _ path: String, json: String? = nil, key: String? = "ak-mockstack") async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: try mock.url(for: "ai").absoluteString + path)!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (try #require(response as? HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func everyOperationIsPublished() async throws {
        let metadata = try JSONParser().parse(try await send("GET", "/types/metadata").text).root
        #expect(metadata["operations"]?.arrayValue?.count == 83)
        #expect(metadata["types"]?.arrayValue?.count == 60)
    }

    @Test func aQueuedChatIsEchoedOntoItsResponse() async throws {
        let queued = try await send("POST", "/api/QueueOpenAiChatCompletion", json: #"{"refId":"r1","provider":"ollama","tag":"t"}"#)
        #expect(queued.status == 200)
        #expect(queued.text == #"{"id":0,"refId":"r1"}"#)
        let anonymous = try await send("POST", "/api/QueueOpenAiChatCompletion", json: #"{"refId":"r1"}"#, key: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.text == #"{"id":0,"responseStatus":{"errorCode":"Unauthorized","message":"Invalid API Key","errors":[]}}"#)
    }

    @Test func aJobStatusEchoesItsIdentifiers() async throws {
        let status = try await send("GET", "/api/GetJobStatus?refId=job-7&jobId=7")
        #expect(status.status == 200)
        #expect(status.text == #"{"jobId":7,"refId":"job-7","jobState":"Queued","outputs":[],"textOutputs":[]}"#)
    }

    @Test func aVoidOperationAnswers204() async throws {
        let deleted = try await send("DELETE", "/api/DeleteAiProvider?id=3")
        #expect(deleted.status == 204)
        #expect(deleted.text.isEmpty)
    }

    @Test func routesAndAutoQueryDeclaredInTheMetadataAnswer() async throws {
        let generation = try await send("GET", "/generation/ref/abc", key: nil)
        #expect(generation.status == 200)
        #expect(generation.text == #"{"outputs":[],"textOutputs":[]}"#)
        let mediaTypes = try await send("GET", "/api/QueryMediaTypes")
        #expect(mediaTypes.status == 200)
        #expect(mediaTypes.text == #"{"offset":0,"total":0,"results":[],"meta":{}}"#)
    }
}
