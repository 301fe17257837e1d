@testable import MockStack
@testable import MockStackControl
import MockStackCore
import Testing

/// A templated answer's limit counts what it fills in as it will be written: in a
/// JSON string a control character takes six bytes, so the limit stops the answer before it is
/// built, not after.
struct StubTemplateTests {
    static func template(body: String, limit: Int) -> StubTemplate {
        let request = HTTPRequest(method: .post, target: "/x", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        return StubTemplate(request: request, json: RequestBodyJSON(request), limit: limit)
    }

    @Test func insertedTextCountsItsJSONEscapes() throws {
        // Ten control characters: ten bytes as text, sixty in a JSON string.
        let body = #"{"s":""# + String(repeating: #"\u0001"#, count: 10) + #""}"#
        var asText = Self.template(body: body, limit: 20)
        #expect(try asText.fill("{{body/s}}").utf8.count == 10)
        var inJSON = Self.template(body: body, limit: 59)
        #expect(throws: StubTemplate.TooLarge.self) { try inJSON.fill(.string("{{body/s}}!")) }
        var roomy = Self.template(body: body, limit: 61)
        #expect(try roomy.fill(.string("{{body/s}}!")).encoded().count == 63)  // the quotes are the answer's own
    }
}
