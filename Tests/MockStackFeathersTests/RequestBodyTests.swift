import MockStackCore
import Testing
@testable import MockStackFeathers

/// Which parser a body gets from its `Content-Type` (docs/feathers.md#request-bodies): any type that mentions JSON,
/// in any case; urlencoded forms by their type's start, in any case; nothing else.
@Suite struct RequestBodyTests {
    private func parse(_ type: String?, _ body: String) throws -> JSONValue {
        let headers: HTTPHeaders = type.map { ["Content-Type": $0] } ?? [:]
        return try RequestBody.parse(HTTPRequest(method: .post, target: "/people", headers: headers, body: Array(body.utf8)))
    }

    @Test func jsonIsFoundAnywhereInTheTypeInAnyCase() throws {
        for type in ["application/json", "Application/JSON; charset=utf-8", "application/vnd.api+Json", "text/x-json", "JSON"] {
            #expect(try parse(type, #"{"a":1}"#) == ["a": 1])
        }
        #expect(try parse("application/jso", #"{"a":1}"#) == [:])
        #expect(try parse("application/json", " \n") == [:])
        #expect(throws: FeathersError.self) { try parse("application/json", "[1,") }
    }

    @Test func formsAreReadByTheTypesStartInAnyCase() throws {
        #expect(try parse("application/x-www-form-urlencoded", "a=1&b[c]=2") == ["a": "1", "b": ["c": "2"]])
        #expect(try parse("APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8", "a=1") == ["a": "1"])
        #expect(try parse("text/plain; application/x-www-form-urlencoded", "a=1") == [:])
        #expect(try parse("application/x-www-form", "a=1") == [:])
        #expect(try parse(nil, "a=1") == [:])
    }
}
