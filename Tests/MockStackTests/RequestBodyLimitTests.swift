import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing

/// A JSON body of more than 250,000 values is a 400 in each app's own format, read no further:
/// even a linear parser, given enough small values, holds the event loop and every connection
/// on it for as long as they take to read.
@Suite(.timeLimit(.minutes(3)))
struct RequestBodyLimitTests {
    let mock: InProcessMockStack
    let client: FeathersClient

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["test", "feathers"]))
        client = FeathersClient(base: "http://127.0.0.1:\(mock.ready.port)")
    }

    static let tooMany = "[" + Array(repeating: "1", count: 250_000).joined(separator: ",") + "]"

    @Test func serviceStackAnswersItsSerializationError() async throws {
        let reply = try await client.send("POST", "/test/api/EchoTypes", json: #"{"Strings":"# + Self.tooMany + "}")
        #expect(reply.status == 400)
        #expect(reply.json["responseStatus"]?["errorCode"] == "SerializationException")
        // Refused at the 250,001st value: the 500,009th character.
        #expect(reply.json["responseStatus"]?["message"]
            == "Could not deserialize 'application/json' request using EchoTypes: more than 250000 values in one document at 1:500009")
    }

    @Test func feathersAnswersBadRequest() async throws {
        let reply = try await client.send("POST", "/feathers/people", json: #"{"tags":"# + Self.tooMany + "}")
        #expect(reply.status == 400)
        #expect(reply.json == ["name": "BadRequest", "message": "Invalid JSON at line 1, column 500006: more than 250000 values in one document",
                               "code": 400, "className": "bad-request"])
        // Nothing was stored.
        #expect(try await client.send("GET", "/feathers/people").json.arrayValue?.isEmpty == true)
    }
}
