import Foundation
import MockStackAuth
import MockStackCore
import Testing
@testable import MockStackFeathers

/// FeathersError bodies for every class in both dialects (docs/feathers.md#errors), the Authorization forms
/// (docs/feathers.md#the-authorization-header), and the store under concurrent writers.
@Suite struct FeathersErrorTests {
    @Test(arguments: FeathersError.Kind.allCases) func everyClassInBothDialects(kind: FeathersError.Kind) {
        let error = FeathersError(kind, "boom")
        let v5 = error.json(.v5).objectValue
        #expect(v5?.keys == ["name", "message", "code", "className"])
        #expect(v5?["code"]?.intValue == kind.rawValue)
        #expect(error.response(.v5).status == kind.rawValue)
        #expect(error.json(.v4).objectValue?.keys == ["name", "message", "code", "className", "errors"])
        #expect(error.json(.v4)["errors"] == [:])
    }

    @Test func namesAndClassNames() {
        let table = FeathersError.Kind.allCases.map { "\($0.rawValue) \($0.name) \($0.className)" }
        #expect(table == [
            "400 BadRequest bad-request", "401 NotAuthenticated not-authenticated", "402 PaymentError payment-error", "403 Forbidden forbidden",
            "404 NotFound not-found", "405 MethodNotAllowed method-not-allowed", "406 NotAcceptable not-acceptable", "408 Timeout timeout",
            "409 Conflict conflict", "410 Gone gone", "411 LengthRequired length-required", "422 Unprocessable unprocessable",
            "429 TooManyRequests too-many-requests", "500 GeneralError general-error", "501 NotImplemented not-implemented",
            "502 BadGateway bad-gateway", "503 Unavailable unavailable",
        ])
        let withData = FeathersError(.badRequest, "Invalid query parameter $like", data: ["$like": "a"])
        #expect(withData.json(.v5).jsonText == #"{"name":"BadRequest","message":"Invalid query parameter $like","code":400,"className":"bad-request","data":{"$like":"a"}}"#)
    }

    /// Feathers' constructor: object data gives up `message` and `errors`.
    @Test func objectDataGivesUpMessageAndErrors() {
        let error = FeathersError(.badRequest, "Invalid query parameter $foo", data: ["$foo": "1", "message": "x", "errors": ["a": "b"]])
        #expect(error.json(.v5).jsonText == #"{"name":"BadRequest","message":"x","code":400,"className":"bad-request","data":{"$foo":"1"},"errors":{"a":"b"}}"#)
        // A converted JavaScript error shows `data` and `errors` in v4.
        #expect(FeathersError(.generalError, "boom", converted: true).json(.v4).jsonText
            == #"{"name":"GeneralError","message":"boom","code":500,"className":"general-error","data":{},"errors":{}}"#)
        #expect(FeathersError(.generalError, "boom", converted: true).json(.v5).jsonText == #"{"name":"GeneralError","message":"boom","code":500,"className":"general-error"}"#)
    }

    @Test func authorizationForms() {
        #expect(FeathersAuthentication.token(fromAuthorization: "Bearer abc") == "abc")
        #expect(FeathersAuthentication.token(fromAuthorization: "jwt abc") == "abc")
        #expect(FeathersAuthentication.token(fromAuthorization: "abc") == "abc")
        #expect(FeathersAuthentication.token(fromAuthorization: "Basic abc") == nil)
        #expect(FeathersAuthentication.token(fromAuthorization: "  ") == nil)
        #expect(FeathersAuthentication.token(fromAuthorization: nil) == nil)
    }

    @Test func passwordsAreSaltedHashes() {
        let first = PasswordHasher.hash("secret"), second = PasswordHasher.hash("secret")
        #expect(first != second && PasswordHasher.isHash(first))
        #expect(PasswordHasher.verify("secret", against: first) && !PasswordHasher.verify("Secret", against: first))
        #expect(!PasswordHasher.verify("secret", against: "secret"))
    }

    /// Writers on many threads at once: every create gets its own id, nothing is lost.
    @Test func concurrentWritesStayConsistent() async throws {
        let service = MemoryService(options: ServiceOptions(path: "items"), seed: [])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<250 {
                        _ = try? service.create(["worker": .number(JSONNumber(worker)), "n": .number(JSONNumber(index))], FeathersQuery(select: nil))
                        if index % 5 == 0 { _ = try? service.patch(nil, ["seen": true], FeathersQuery(["worker": .number(JSONNumber(worker))], dialect: .v5)) }
                        // The eight writers share the test runner's few threads with every other
                        // test: yielding keeps them from holding those threads for the whole run.
                        await Task.yield()
                    }
                }
            }
        }
        guard case .records(let records) = try service.find(FeathersQuery([:], dialect: .v5)) else { Issue.record("not a list"); return }
        #expect(records.count == 2000)
        #expect(Set(records.compactMap { $0["id"]?.intValue }) == Set(0..<2000))
        service.reset()
        #expect(try service.find(FeathersQuery([:], dialect: .v5)) == .records([]))
    }
}
