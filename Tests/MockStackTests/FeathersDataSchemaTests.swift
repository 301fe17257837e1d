import Foundation
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The shipped v5 app checks what `create`, `update` and `patch` store as a generated app's
/// data schemas do (docs/feathers.md#data-schemas): Ajv without coercion, a 400 with Ajv's error,
/// and nothing stored; then the data resolver completes the record. The v4 app, like a v4
/// generated app, has no schemas.
@Suite(.timeLimit(.minutes(3)))
struct FeathersDataSchemaTests {
    let mock: InProcessMockStack
    let server: FeathersClient
    let v4: FeathersClient

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers", "feathers-v4"]))
        server = FeathersClient(base: try mock.url(for: "feathers").absoluteString)
        v4 = FeathersClient(base: try mock.url(for: "feathers-v4").absoluteString)
    }

    private func login() async throws -> [String: String] {
        let reply = try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "test@example.com", "password": "secret"}"#)
        return ["Authorization": try #require(reply.json["accessToken"]?.stringValue, "\(reply.status) \(reply.text)")]
    }

    private static func refusal(_ path: String, _ schemaPath: String, _ keyword: String, _ params: String, _ message: String) -> String {
        #"{"name":"BadRequest","message":"validation failed","code":400,"className":"bad-request","data":[{"instancePath":"\#(path)","schemaPath":"\#(schemaPath)","keyword":"\#(keyword)","params":\#(params),"message":"\#(message)"}]}"#
    }

    @Test func aNumberSentAsTextIsRefusedAndNothingIsStored() async throws {
        let reply = try await server.send("POST", "/people", json: #"{"name": "A", "age": "51"}"#)
        #expect(reply.status == 400)
        #expect(reply.headers["content-type"] == "application/json; charset=utf-8")
        #expect(reply.text == Self.refusal("/age", "#/properties/age/type", "type", #"{"type":"number"}"#, "must be number"))
        #expect(try await server.send("GET", "/people").text == "[]")
        let stored = try await server.send("POST", "/people", json: #"{"name": "A", "age": 51}"#)
        #expect(stored.status == 201 && stored.text == #"{"name":"A","age":51,"id":0}"#)
    }

    @Test func messagesTakeTextAloneAsTheGeneratedChatAppsDo() async throws {
        let headers = try await login()
        let number = try await server.send("POST", "/messages", json: #"{"text": 123}"#, headers: headers)
        #expect(number.status == 400 && number.text == Self.refusal("/text", "#/properties/text/type", "type", #"{"type":"string"}"#, "must be string"))
        let extra = try await server.send("POST", "/messages", json: #"{"text": "hi", "userId": 7}"#, headers: headers)
        #expect(extra.text == Self.refusal("", "#/additionalProperties", "additionalProperties", #"{"additionalProperty":"userId"}"#,
                                            "must NOT have additional properties"))
        let empty = try await server.send("POST", "/messages", json: "{}", headers: headers)
        #expect(empty.text == Self.refusal("", "#/required", "required", #"{"missingProperty":"text"}"#, "must have required property 'text'"))
        #expect(try await server.send("GET", "/messages", headers: headers).json["total"] == 3)
        // Authentication runs first (an around hook), so a caller without a token hears 401.
        #expect(try await server.send("POST", "/messages", json: #"{"text": 123}"#).status == 401)
        // The query is validated before the data, as `all` hooks run before `create`'s.
        let query = try await server.send("PATCH", "/messages/0?nickname=x", json: #"{"text": 1}"#, headers: headers)
        #expect(query.json["data"]?.arrayValue?.first?["params"] == ["additionalProperty": "nickname"])
        #expect(try await server.send("PATCH", "/messages/0", json: #"{"text": "edited"}"#, headers: headers).json["text"] == "edited")
    }

    @Test func aNewMessageGetsItsSenderAndItsMoment() async throws {
        let headers = try await login()
        let before = Int(Date().timeIntervalSince1970 * 1000)
        let reply = try await server.send("POST", "/messages", json: #"{"text": "hi"}"#, headers: headers)
        let after = Int(Date().timeIntervalSince1970 * 1000)
        #expect(reply.status == 201)
        #expect(reply.json.objectValue?.keys == ["text", "userId", "createdAt", "id"])
        #expect(reply.json["userId"] == 0 && reply.json["text"] == "hi")
        let createdAt = try #require(reply.json["createdAt"]?.intValue)
        #expect((before...after).contains(createdAt))
        // A patch leaves them as they are.
        #expect(try await server.send("PATCH", "/messages/3", json: #"{"text": "edited"}"#, headers: headers).json["createdAt"]?.intValue == createdAt)
    }

    @Test func usersSignUpWithAnEmailAndAPasswordOnly() async throws {
        let missing = try await server.send("POST", "/users", json: #"{"password": "pw"}"#)
        #expect(missing.text == Self.refusal("", "#/required", "required", #"{"missingProperty":"email"}"#, "must have required property 'email'"))
        let number = try await server.send("POST", "/users", json: #"{"email": "new@example.com", "password": 1234}"#)
        #expect(number.text == Self.refusal("/password", "#/properties/password/type", "type", #"{"type":"string"}"#, "must be string"))
        let admin = try await server.send("POST", "/users", json: #"{"email": "new@example.com", "isAdmin": true}"#)
        #expect(admin.json["data"]?.arrayValue?.first?["params"] == ["additionalProperty": "isAdmin"])
        // The password may be left out, as the schema's `Type.Optional` allows.
        let created = try await server.send("POST", "/users", json: #"{"email": "new@example.com"}"#)
        #expect(created.status == 201 && created.text == #"{"email":"new@example.com","id":1}"#)
        // A query may name the id and the email only.
        let password = try await server.send("GET", "/users?password=secret", headers: try await login())
        #expect(password.json["data"]?.arrayValue?.first?["params"] == ["additionalProperty": "password"])
    }

    @Test func patchTakesAnyDeclaredPropertyAndUpdateTakesWhatCreateTakes() async throws {
        try await server.seed("/people", [#"{"name": "Ann", "age": 30}"#])
        #expect(try await server.send("PATCH", "/people/0", json: #"{"age": 31}"#).text == #"{"name":"Ann","age":31,"id":0}"#)
        let wrongType = try await server.send("PATCH", "/people/0", json: #"{"created": "yes"}"#)
        #expect(wrongType.text == Self.refusal("/created", "#/properties/created/type", "type", #"{"type":"boolean"}"#, "must be boolean"))
        let replaced = try await server.send("PUT", "/people/0", json: #"{"name": "Ann B.", "nickname": "Annie"}"#)
        #expect(replaced.json["data"]?.arrayValue?.first?["params"] == ["additionalProperty": "nickname"])
        #expect(try await server.send("PUT", "/people/0", json: #"{"name": "Ann B."}"#).text == #"{"name":"Ann B.","id":0}"#)
        // The people services take an id of the client's choosing, of the schema's type.
        #expect(try await server.send("PUT", "/people/0", json: #"{"id": 0, "name": "Ann C."}"#).text == #"{"id":0,"name":"Ann C."}"#)
        #expect(try await server.send("POST", "/people", json: #"{"id": "seven", "name": "S"}"#).json["data"]?.arrayValue?.first?["message"]
            == "must be number")
        #expect(try await server.send("POST", "/people", json: #"{"id": 7, "name": "S"}"#).text == #"{"id":7,"name":"S"}"#)
        // A body that is no record is Ajv's type error.
        #expect(try await server.send("PATCH", "/people/0", json: "[1]").json["data"]?.arrayValue?.first?["message"] == "must be object")
    }

    @Test func aMultiCreateStoresNothingWhenOneRecordIsRefused() async throws {
        let reply = try await server.send("POST", "/people-paginated", json: #"[{"name": "A"}, {"name": "B", "age": "2"}]"#)
        #expect(reply.status == 400)
        #expect(reply.text == Self.refusal("/age", "#/properties/age/type", "type", #"{"type":"number"}"#, "must be number"))
        #expect(try await server.send("GET", "/people-paginated").json["total"] == 0)
    }

    @Test func theV4AppHasNoDataSchemas() async throws {
        let reply = try await v4.send("POST", "/people", json: #"{"name": "A", "age": "51"}"#)
        #expect(reply.status == 201 && reply.text == #"{"name":"A","age":"51","id":0}"#)
    }

    @Test func manifestMistakesAreReportedWithTheSchemasNames() {
        let manifest = #"""
            {"kind": "feathers", "services": {
              "a": {"schema": {"name": "string", "age": "number"}, "coerce": ["nmae"], "data": ["name", "aeg?", 3]},
              "b": {"data": ["name"]},
              "c": {"schema": {"name": "string"}, "coerce": "yes", "data": {"create": ["name"]}},
              "d": {"resolveData": {"userId": "user.id", "at": "today", "by": "user."}}}}
            """#
        #expect(manifestProblems(manifest) == [
            "/services/a/coerce/0: 'nmae' is not in the schema; did you mean 'name'?",
            "/services/a/data/1: 'aeg' is not in the schema; did you mean 'age'?",
            "/services/a/data/2: expected a property's name, found number",
            "/services/b/data: data needs a schema of the properties' types",
            "/services/c/coerce: expected true, false or a list of the properties a query may name, found string",
            #"/services/c/data: expected a list of the properties create takes ("name", or "name?" when it may be left out), found object"#,
            #"/services/d/resolveData/at: expected "user.FIELD" (the signed-in user's field) or "now""#,
            #"/services/d/resolveData/by: expected "user.FIELD" (the signed-in user's field) or "now""#,
            "/services/d/resolveData/userId: 'user.id' reads the signed-in user, so create must need a JWT (add it to authenticate)",
        ])
    }
}
