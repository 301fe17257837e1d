import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// AI Server's OpenAiChatCompletion, answered with the `ai` app's canned completion.
@Suite struct ChatCompletionTests {
    static let ai = try! TestHost.load("ai")
    let key: HTTPHeaders = ["Authorization": "Bearer ak-mockstack"]

    /// The real response shape and key names (AI Server's `[DataMember]` names), the same
    /// bytes every time, by the operation's route and by the OpenAI-style one its DTO declares.
    @Test func answersTheCannedCompletionInTheRealShape() {
        let body = #"{"model":"llama3.1:8b","messages":[{"role":"user","content":"What's the capital of France?"}],"max_tokens":50}"#
        let expected = #"{"id":"chatcmpl-mockstack","choices":[{"finish_reason":"stop","index":0,"message":{"content":"The capital of France is Paris.","role":"assistant"}}],"#
            + #""created":1732579200,"model":"llama3.1:8b","object":"chat.completion","usage":{"completion_tokens":6,"prompt_tokens":5,"total_tokens":11}}"#
        for path in ["/api/OpenAiChatCompletion", "/v1/chat/completions", "/api/OpenAiChatCompletion"] {
            let response = TestHost.call(.post, path, json: body, headers: key, app: Self.ai)
            #expect(response.status == 200)
            #expect(response.contentType == "application/json; charset=utf-8")
            #expect(response.text == expected)
        }
    }

    @Test func refusesAsAIServerDoes() {
        let unknown = TestHost.call(.post, "/v1/chat/completions", json: #"{"model":"gpt-5","messages":[{"role":"user","content":"hi"}]}"#,
                                    headers: key, app: Self.ai)
        #expect(unknown.status == 404)
        #expect(unknown.text == #"{"created":0,"responseStatus":{"errorCode":"NotFound","message":"Model gpt-5 not found","errors":[]}}"#)
        let empty = TestHost.call(.post, "/v1/chat/completions", json: #"{"model":"llama3.1:8b","messages":[]}"#, headers: key, app: Self.ai)
        #expect(empty.status == 400)
        #expect(empty.text == #"{"created":0,"responseStatus":{"errorCode":"ArgumentNullException","message":"Value cannot be null. (Parameter \u0027Messages\u0027)","#
                + #""errors":[{"errorCode":"ArgumentNullException","fieldName":"Messages","message":"Value cannot be null."}]}}"#)
        #expect(TestHost.call(.post, "/v1/chat/completions", json: "{}", app: Self.ai).status == 401)
    }

    @Test func theManifestSaysWhatItAnswers() throws {
        let manifest = #"{"kind":"servicestack","metadata":"metadata.json","operations":{"OpenAiChatCompletion":"#
        let metadata = try String(contentsOf: TestHost.packageRoot.appendingPathComponent("Fixtures/ai/metadata.json"), encoding: .utf8)
        func load(_ operation: String) throws -> ServiceStackApp {
            let source = InMemoryFixtureSource(files: ["ai/app.json": manifest + operation + "}}", "ai/metadata.json": metadata])
            return try AppLoader(kinds: [ServiceStackAppKind(clock: { TestHost.fixedNow })]).load(from: source)[0] as! ServiceStackApp
        }
        // `"created": "now"` is the request's moment; by default it is 0.
        let app = try load(#"{"behaviour":"chatCompletion","models":["m"],"content":"Hello there","created":"now","id":"c-1"}"#)
        let answer = TestHost.call(.post, "/api/OpenAiChatCompletion", json: #"{"model":"m","messages":[{"role":"user","content":"Hi"}]}"#, headers: key, app: app)
        #expect(answer.text.hasPrefix(#"{"id":"c-1","choices":[{"finish_reason":"stop","index":0,"message":{"content":"Hello there","role":"assistant"}}],"created":1763763303,"model":"m","#))
        do {
            _ = try load(#"{"behaviour":"chatCompletion","content":"x","created":-1}"#)
            Issue.record("a chatCompletion without models loaded")
        } catch let error as FixtureErrors {
            #expect(error.diagnostics.map(\.description) == [
                "Fixtures/ai/app.json:1:88: /operations/OpenAiChatCompletion: chatCompletion needs 'models': a non-empty array of model names",
                "Fixtures/ai/app.json:1:142: /operations/OpenAiChatCompletion/created: 'created' is seconds since 1970 (a non-negative integer) or \"now\"",
            ])
        }
    }
}
