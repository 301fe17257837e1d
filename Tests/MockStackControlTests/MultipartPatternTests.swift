import Foundation
import MockStackControl
import MockStackCore
import MockStackWire
import Testing

/// `parts` in a request pattern: the parts of a `multipart/form-data` body by name, file name,
/// content type and body, one part at least (ANY) or every part (ALL), as WireMock's
/// `multipartPatterns`.
@Suite struct MultipartPatternTests {
    let harness = ControlHarness()

    /// A form of `(name, file name, content type, body)` parts.
    private func upload(_ parts: [(String, String?, String?, String)]) -> HTTPResponse {
        var body = ""
        for (name, fileName, type, content) in parts {
            body += "--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"" + (fileName.map { "; filename=\"\($0)\"" } ?? "") + "\r\n"
            if let type { body += "Content-Type: \(type)\r\n" }
            body += "\r\n\(content)\r\n"
        }
        body += "--XyZ--\r\n"
        var request = HTTPRequest(method: .post, target: "/test/api/Hello", headers: ["Content-Type": "multipart/form-data; boundary=XyZ"])
        request.body = Array(body.utf8)
        return harness.root.respond(to: request)
    }

    @Test func onePartAtLeastMatchesEachPattern() throws {
        try harness.stub(#"{"parts": [{"name": "file", "fileName": {"matches": ".*\\.png"}, "contentType": "image/png"}, {"name": "note", "body": {"contains": "hi"}}]}"#)
        #expect(upload([("note", nil, nil, "bye")]).status == 200)
        #expect(harness.nearMissReasons == ["no part matches parts.0: name is 'note', not 'file'"])
        #expect(upload([("file", "a.jpg", "image/jpeg", "…"), ("note", nil, nil, "hi there")]).status == 200)
        #expect(harness.nearMissReasons == ["no part matches parts.0 (parts sent: 'file', 'note')"])
        #expect(upload([("note", nil, nil, "oh hi"), ("file", "a.png", "image/png", "\u{89}PNG")]).status == 418)
        #expect(harness.send(.post, "/test/api/Hello", json: ["name": "x"]).status == 200)
    }

    @Test func everyPartMustMatchAnAllPattern() throws {
        try harness.stub(#"{"parts": [{"fileName": {"not": {"absent": true}}, "matchingType": "ALL"}]}"#)
        #expect(upload([("a", "a.txt", nil, "1"), ("b", nil, nil, "2")]).status == 200)
        #expect(harness.nearMissReasons == ["part 2 ('b') misses parts.0: fileName is absent, not present"])
        #expect(upload([("a", "a.txt", nil, "1"), ("b", "b.txt", "text/plain", "2")]).status == 418)
    }

    @Test func aBodyThatIsNoFormIsANearMissThatSaysSo() throws {
        try harness.stub(#"{"parts": [{"name": "file"}]}"#)
        #expect(harness.send(.post, "/test/api/Hello", json: ["name": "x"]).status == 200)
        #expect(harness.nearMissReasons == ["the body is not multipart/form-data"])
    }

    @Test func partPatternsReadBackAndRefuseWhatTheyCannotUse() throws {
        let text = #"{"parts": [{"name": "file", "fileName": {"absent": true}, "body": {"contains": "x"}, "matchingType": "ALL"}]}"#
        let pattern = try RequestPattern(json: harness.parse(text), field: "match")
        #expect(pattern.parts == [.init(name: .equalTo("file"), fileName: .absent, body: .contains("x"), everyPart: true)])
        #expect(pattern.json == (try harness.parse(text)))
        for (match, message) in [
            (#"{"parts": []}"#, #"match.parts: expected a list of part patterns ({"name", "fileName", "contentType", "body"})"#),
            (#"{"parts": [{"nme": "x"}]}"#, "match.parts.0.nme: unknown field, did you mean 'name'? (expected one of body, contentType, fileName, matchingType, name)"),
            (#"{"parts": [{"matchingType": "SOME"}]}"#, "match.parts.0.matchingType: expected ANY or ALL"),
        ] {
            let answer = harness.send(.post, "/__mockstack/stubs", json: try harness.parse(#"{"match": \#(match)}"#))
            #expect(answer.status == 400)
            #expect((try? JSONParser().parse(answer.body).root)?["message"]?.stringValue == "Invalid stub: " + message)
        }
    }
}
