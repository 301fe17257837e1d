@testable import MockStackCore
import Testing

/// The request's and response's fields, each declared once in their box's `Fields`: a copy,
/// equality and routing to a mount take every one of them.
@Suite struct HTTPFieldsTests {
    static func request(_ name: String = "PURGE") -> HTTPRequest {
        var request = HTTPRequest(method: .post, target: "/test/api/Hello?x=1", headers: ["A": "1"], body: [1, 2],
                                  mountPath: "/s")
        request.methodName = name
        return request
    }

    @Test func routingKeepsEveryFieldButThePathAndTheMount() {
        let routed = Self.request().routed(toMount: "/test")
        #expect(routed.methodName == "PURGE" && routed.method == .unknown)
        #expect(routed.target == "/test/api/Hello?x=1" && routed.query == "x=1")
        #expect(routed.headers["A"] == "1" && routed.body == [1, 2])
        #expect(routed.path == "/api/Hello" && routed.mountPath == "/s/test")
    }

    @Test func equalityComparesEveryField() {
        let original = Self.request()
        #expect(original == Self.request())
        #expect(original != Self.request("FOO"), "the unknown method's name")
        var changed = original
        changed.mountPath = "/t"
        #expect(changed != original)
        changed = original
        changed.body = [1]
        #expect(changed != original)
        changed = original
        changed.headers.add("B", "2")
        #expect(changed != original)
        #expect(original.storage.fields == Self.request().storage.fields)
    }

    @Test func aChangedCopyLeavesTheOriginal() {
        let original = Self.request()
        var copy = original
        copy.path = "/other"
        #expect(original.path == "/test/api/Hello" && copy.path == "/other")
        #expect(copy.methodName == "PURGE" && copy.body == [1, 2])
    }

    @Test func aResponseCopyKeepsItsFieldsAndDropsThePreparedHead() {
        var response = HTTPResponse(status: 201, reason: "Made", headers: ["A": "1"], body: [7])
        response.defaultsContentType = false
        let prepared = response.preparingHead()
        #expect(prepared.storage.preparedHead != nil)
        #expect(prepared == response, "a prepared head is only a cache")
        var changed = prepared
        changed.status = 202
        #expect(changed.storage.preparedHead == nil)
        #expect(changed.reason == "Made" && changed.headers["A"] == "1")
        #expect(changed.body == [7] && !changed.defaultsContentType)
        #expect(prepared.status == 201)
        var other = response
        other.defaultsContentType = true
        #expect(other != response)
    }
}
