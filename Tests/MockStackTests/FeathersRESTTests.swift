import Foundation
import MockStack
import MockStackAuth
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing

/// The shipped `feathers` app over loopback (docs/feathers.md#rest, docs/feathers.md#errors, docs/feathers.md#authentication, docs/feathers.md#the-generated-app): authentication flows and
/// tokens, protected services, the exact error bodies, the FeathersSwift client's requests as
/// it really sends them, and bad input.
@Suite(.timeLimit(.minutes(3)))
struct FeathersRESTTests {
    let mock: InProcessMockStack
    let server: FeathersClient

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers"]))
        server = FeathersClient(base: try mock.url(for: "feathers").absoluteString)
    }

    static let secret = "mockstack-feathers-test-secret-not-for-production"

    private func login() async throws -> String {
        let reply = try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "test@example.com", "password": "secret"}"#)
        return try #require(reply.json["accessToken"]?.stringValue)
    }

    private func decodedSegment(_ token: String, _ index: Int) throws -> JSONValue {
        try JSONParser().parse(try #require(Base64URL.decode(token.split(separator: ".")[index]))).root
    }

    // MARK: Authentication

    @Test func localLoginAnswersTheV5Shape() async throws {
        let reply = try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "test@example.com", "password": "secret"}"#)
        #expect(reply.status == 201)
        #expect(reply.headers["content-type"] == "application/json; charset=utf-8")
        let body = reply.json
        #expect(body.objectValue?.keys == ["accessToken", "authentication", "user"])
        #expect(body["user"] == ["id": 0, "email": "test@example.com"])
        let token = try #require(body["accessToken"]?.stringValue)
        let payload = try #require(body["authentication"]?["payload"]?.objectValue)
        #expect(body["authentication"]?["strategy"] == "local" && body["authentication"]?["accessToken"] == nil)
        #expect(payload.keys == ["iat", "exp", "aud", "sub", "jti"])
        #expect(payload["aud"] == "https://yourdomain.com" && payload["sub"] == "0")
        #expect(payload["exp"]?.intValue == (payload["iat"]?.intValue ?? 0) + 86_400)
        #expect(payload["jti"]?.stringValue?.count == 36)
        // alg first, as jsonwebtoken writes it.
        #expect(token.split(separator: ".")[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6ImFjY2VzcyJ9")
        let claims = try decodedSegment(token, 1)
        #expect(claims["iss"] == nil && claims["sub"] == "0" && claims["jti"] == payload["jti"])
        // The token is a real HS256 JWT under the app's secret.
        #expect(throws: Never.self) { try HS256Tokens(secret: Self.secret).verify(token, at: Date()) }
    }

    @Test func formLoginAsFeathersSwiftSendsIt() async throws {
        let reply = try await server.send("POST", "/authentication", form: "email=test%40example.com&password=secret&strategy=local")
        #expect(reply.status == 201 && reply.json["user"]?["email"] == "test@example.com")
    }

    @Test func badLoginsAreAllInvalidLogin() async throws {
        let invalid = #"{"name":"NotAuthenticated","message":"Invalid login","code":401,"className":"not-authenticated"}"#
        for body in [#"{"strategy": "local", "email": "test@example.com", "password": "wrong"}"#, #"{"strategy": "local", "email": "nobody@example.com", "password": "secret"}"#,
                     #"{"strategy": "local", "email": "test@example.com"}"#, #"{"strategy": "local", "email": "test@example.com", "password": 1}"#] {
            let reply = try await server.send("POST", "/authentication", json: body)
            #expect(reply.status == 401 && reply.text == invalid, "\(body)")
        }
        #expect(try await server.send("POST", "/authentication", json: #"{"email": "x"}"#).json["message"] == "Invalid authentication information (no `strategy` set)")
        #expect(try await server.send("POST", "/authentication", json: #"{"strategy": "oauth"}"#).json["message"]
            == "Invalid authentication information (strategy not allowed in authStrategies)")
        #expect(try await server.send("POST", "/authentication", json: #"{"strategy": "jwt"}"#).json["message"] == "No access token")
        #expect(try await server.send("POST", "/authentication", json: #"{"strategy": ""}"#).json["message"] == "Invalid authentication information (no `strategy` set)")
    }

    @Test func jwtStrategyReturnsTheSameToken() async throws {
        let token = try await login()
        let reply = try await server.send("POST", "/authentication", json: #"{"strategy": "jwt", "accessToken": "\#(token)"}"#)
        #expect(reply.status == 201)
        #expect(reply.json["accessToken"]?.stringValue == token)
        #expect(reply.json["authentication"]?.objectValue?.keys == ["strategy", "accessToken", "payload"])
        #expect(reply.json["user"] == ["id": 0, "email": "test@example.com"])
    }

    @Test func protectedServicesTakeEveryTokenForm() async throws {
        let token = try await login()
        let none = try await server.send("GET", "/messages")
        #expect(none.status == 401 && none.text == #"{"name":"NotAuthenticated","message":"Not authenticated","code":401,"className":"not-authenticated"}"#)
        for header in ["Bearer \(token)", "bearer \(token)", "JWT \(token)", token] {
            let reply = try await server.send("GET", "/messages", headers: ["Authorization": header])
            #expect(reply.status == 200 && reply.json["total"] == 3, "\(header.prefix(8))")
        }
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": "Basic dGVzdDp0ZXN0"]).status == 401)
    }

    @Test func expiredTamperedAndUnsignedTokensAreRefused() async throws {
        let tokens = HS256Tokens(secret: Self.secret)
        var claims = TokenClaims(subject: "0", issuedAt: Date(timeIntervalSince1970: 1_600_000_000), expiration: Date(timeIntervalSince1970: 1_600_086_400), id: "j")
        claims.audience = "https://yourdomain.com"
        let expired = try await server.send("GET", "/messages", headers: ["Authorization": tokens.sign(claims, type: "access")])
        #expect(expired.status == 401)
        #expect(expired.json == ["name": "NotAuthenticated", "message": "jwt expired", "code": 401, "className": "not-authenticated",
                                 "data": ["name": "TokenExpiredError", "expiredAt": "2020-09-14T12:26:40.000Z"]])
        let token = try await login()
        let parts = token.split(separator: ".")
        var payload = try decodedSegment(token, 1).objectValue ?? [:]
        payload["sub"] = "1"
        let forged = parts[0] + "." + Base64URL.encode(JSONValue.object(payload).encoded()) + "." + parts[2]
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": String(forged)]).json["message"] == "invalid signature")
        let unsigned = Base64URL.encode(Array(#"{"alg":"none","typ":"access"}"#.utf8)) + "." + parts[1] + "."
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": unsigned]).json["message"] == "jwt signature is required")
        let otherKey = HS256Tokens(secret: "another-secret").sign(claims, type: "access")
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": otherKey]).json["message"] == "invalid signature")
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": "not-a-jwt"]).json["message"] == "jwt malformed")
        var elsewhere = TokenClaims(subject: "0", issuedAt: Date(), expiration: Date().addingTimeInterval(3600), id: "k")
        elsewhere.audience = "https://elsewhere.example"
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": tokens.sign(elsewhere, type: "access")]).json["message"]
            == "jwt audience invalid. expected: https://yourdomain.com")
    }

    @Test func logoutVariants() async throws {
        let token = try await login()
        let out = try await server.send("DELETE", "/authentication", headers: ["Authorization": "Bearer \(token)"])
        #expect(out.status == 200 && out.json["accessToken"]?.stringValue == token && out.json["authentication"]?["strategy"] == "jwt")
        #expect(try await server.send("DELETE", "/authentication/\(token)", headers: ["Authorization": token]).status == 200)
        let mismatch = try await server.send("DELETE", "/authentication/other", headers: ["Authorization": token])
        #expect(mismatch.status == 401 && mismatch.json["message"] == "Invalid access token")
        // FeathersSwift logs out without its token.
        let tokenless = try await server.send("DELETE", "/authentication")
        #expect(tokenless.status == 401 && tokenless.json["message"] == "Invalid authentication information (no `strategy` set)")
        #expect(try await server.send("DELETE", "/authentication/\(token)").status == 500)
        // Nothing is revoked: the token still works.
        #expect(try await server.send("GET", "/messages", headers: ["Authorization": token]).status == 200)
    }

    @Test func usersSignUpOpenlyAndNeverShowPasswords() async throws {
        let created = try await server.send("POST", "/users", json: #"{"email": "new@example.com", "password": "pw"}"#)
        #expect(created.status == 201 && created.json == ["email": "new@example.com", "id": 1])
        #expect(try await server.send("GET", "/users").status == 401)
        let login = try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "new@example.com", "password": "pw"}"#)
        #expect(login.json["user"] == ["email": "new@example.com", "id": 1])
        let token = try #require(login.json["accessToken"]?.stringValue)
        // The shipped app's users service lists the caller's own record only (ownRecordsOnly).
        let users = try await server.send("GET", "/users", headers: ["Authorization": token])
        #expect(users.json == [["email": "new@example.com", "id": 1]])
        // A patched password is hashed too: the new one logs in, the old one does not.
        #expect(try await server.send("PATCH", "/users/1", json: #"{"password": "pw2"}"#, headers: ["Authorization": token]).json == ["email": "new@example.com", "id": 1])
        #expect(try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "new@example.com", "password": "pw2"}"#).status == 201)
        #expect(try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "new@example.com", "password": "pw"}"#).status == 401)
    }

    // MARK: REST mapping and errors

    @Test func restMappingAndMessages() async throws {
        #expect(try await server.send("PUT", "/people", json: #"{"name": "A"}"#).text
            == #"{"name":"BadRequest","message":"You can not replace multiple instances. Did you mean 'patch'?","code":400,"className":"bad-request"}"#)
        #expect(try await server.send("PATCH", "/people", json: #"{"age": 1}"#).json["message"] == "Can not patch multiple entries")
        // The data schema runs first, as a before hook runs before the method.
        #expect(try await server.send("PATCH", "/people", json: #"{"a": 1}"#).json["message"] == "validation failed")
        #expect(try await server.send("DELETE", "/people").json["message"] == "Can not remove multiple entries")
        #expect(try await server.send("POST", "/people", json: #"[{"name": "A"}]"#).json["message"] == "Can not create multiple entries")
        #expect(try await server.send("POST", "/people", json: "{}", headers: ["X-Service-Method": "find"]).text
            == #"{"name":"MethodNotAllowed","message":"Method `find` is not supported by this endpoint.","code":405,"className":"method-not-allowed"}"#)
        #expect(try await server.send("HEAD", "/people").status == 405)
        #expect(try await server.send("GET", "/nope?x=1").text
            == #"{"name":"NotFound","message":"Page not found","code":404,"className":"not-found","data":{"url":"/nope?x=1"}}"#)
        // v5's router: exact case and depth.
        #expect(try await server.send("GET", "/People").status == 404)
        #expect(try await server.send("GET", "/people/1/x").status == 404)
        #expect(try await server.send("GET", "/people/").status == 200)
        #expect(try await server.send("GET", "/authentication").json["message"] == "Method `find` is not supported by this endpoint.")
        // Accept without JSON: the call runs, then 406.
        let refused = try await server.send("POST", "/people", json: #"{"name": "Ann"}"#, headers: ["Accept": "text/plain"])
        #expect(refused.status == 406 && refused.json["className"] == "not-acceptable")
        #expect(try await server.send("GET", "/people").json.names == ["Ann"])
        let preflight = try await server.send("OPTIONS", "/people")
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "*")
    }

    @Test func feathersSwiftRequestsAsTheyAreSent() async throws {
        let token = try await login()
        let headers = ["Authorization": token, "Content-Type": "application/json"]
        // Content-Type on a GET, raw token, random order, percent-encoded brackets.
        let page = try await server.send("GET", "/messages?%24sort%5BcreatedAt%5D=-1&%24limit=1", headers: headers)
        #expect(page.json["data"]?.arrayValue?.first?["id"] == 2 && page.json["limit"] == 1)
        // Values are text; the generated app's query schemas convert them.
        let some = try await server.send("GET", "/messages?id%5B%24in%5D%5B0%5D=0&id%5B%24in%5D%5B1%5D=1", headers: headers)
        #expect(some.json["data"]?.arrayValue?.map { $0["id"] } == [0, 1])
        // The client's `$select=["text", "userId"]` is text, which a query schema refuses.
        let selected = try await server.send("GET", "/messages?%24select=%5B%22text%22%2C%20%22userId%22%5D", headers: headers)
        #expect(selected.status == 400 && selected.json["data"]?.arrayValue?.first?["message"] == "must be array")
        // Without a schema, memory picks single characters from it, so every record is empty.
        let schemaless = try FeathersTestServer(services: #"{"notes": {}}"#)
        try await schemaless.seed("/notes", [#"{"text": "a"}"#, #"{"text": "b"}"#])
        #expect(try await schemaless.send("GET", "/notes?%24select=%5B%22text%22%5D").json == [[:], [:]])
        _ = try await server.send("POST", "/people-paginated", json: #"[{"name": "Alice", "age": 19}, {"name": "Bob", "age": 25}]"#)
        #expect(try await server.send("GET", "/people-paginated?age%5B%24gt%5D=20", headers: headers).json.names == ["Bob"])
        #expect(try await server.send("GET", "/people-paginated?name%5B%24in%5D%5B0%5D=Alice&name%5B%24in%5D%5B1%5D=Bob", headers: headers).json["total"] == 2)
    }

    @Test func badInputIsA4xxAndNothingBreaks() async throws {
        let invalid = try await server.send("POST", "/people", json: #"{"name": "#)
        #expect(invalid.status == 400 && invalid.json["name"] == "BadRequest")
        #expect(try await server.send("GET", "/people?$limit=abc").json["message"] == "validation failed")
        #expect(try await server.send("GET", "/people?undeclared=1").json["data"]?.arrayValue?.first?["message"] == "must NOT have additional properties")
        // Deep brackets stop at five levels: on a schema-less service the query is one odd,
        // harmless condition; with a schema it is an undeclared property.
        let deep = "?a" + String(repeating: "%5Bx%5D", count: 2000) + "=1"
        let schemaless = try FeathersTestServer(services: #"{"notes": {"paginate": {"default": 5}}}"#)
        let page = try await schemaless.send("GET", "/notes" + deep)
        #expect(page.status == 200 && page.json["total"] == 0)
        #expect(try await server.send("GET", "/people" + deep).status == 400)
        #expect(try await server.send("POST", "/people", json: "5").status == 400)
        #expect(try await schemaless.send("POST", "/notes", json: #"{"id": 1e20, "name": "big"}"#).status == 201)
        // Too large for a number: the schema refuses it (a schema-less service pages it, skip null).
        #expect(try await server.send("GET", "/people?$skip=" + String(repeating: "9", count: 400)).status == 400)
        // qs reads the first 1000 parameters and ignores the rest.
        let many = "/people?" + (0..<1200).map { "name%5B%24in%5D%5B%5D=n\($0)" }.joined(separator: "&")
        #expect(try await server.send("GET", many).status == 200)
        let huge = "/people?" + (0..<4000).map { "name%5B%24in%5D%5B%5D=n\($0)" }.joined(separator: "&")
        #expect(try await server.send("GET", huge).status == 431)
        #expect(try await server.send("POST", "/people", json: #"[{"name": "A"}, {"name": "B"}]"#).status == 405)
        #expect(try await server.send("POST", "/people", json: "[1, 2]").json["data"]?.arrayValue?.first?["message"] == "must be object")
        #expect(try await server.send("GET", "/people").status == 200)
    }
}

/// A v4 app: `Allow` on every service response, `errors: {}` always, v4's filters and
/// `$limit` parsing, and the v4 authentication reply with `iss`.
@Suite(.timeLimit(.minutes(3)))
struct FeathersV4Tests {
    @Test func v4Dialect() async throws {
        let server = try FeathersTestServer(dialect: "v4", services: #"{"users": {"seed": "users.json"}, "items": {"paginate": {"default": 5, "max": 10}, "methods": ["find", "get", "create"]}}"#,
                                            authentication: true, files: ["suite/users.json": #"[{"email": "a@b.c", "password": "pw"}]"#])
        let found = try await server.send("GET", "/items")
        #expect(found.headers["allow"] == "GET,POST")
        let refused = try await server.send("DELETE", "/items/1")
        #expect(refused.status == 405 && refused.headers["allow"] == "GET,POST")
        #expect(refused.text == #"{"name":"MethodNotAllowed","message":"Method `remove` is not supported by this endpoint.","code":405,"className":"method-not-allowed","errors":{}}"#)
        #expect(try await server.send("GET", "/items/9").text == #"{"name":"NotFound","message":"No record found for id '9'","code":404,"className":"not-found","errors":{}}"#)
        #expect(try await server.send("GET", "/nope").json["errors"] == [:])
        #expect(try await server.send("GET", "/items?$foo=1").json["message"] == "Invalid query parameter $foo")
        try await server.seed("/items", (0..<3).map { #"{"n": \#($0)}"# })
        #expect(try await server.send("GET", "/items?$limit=-1").json["data"]?.arrayValue?.count == 1)
        #expect(try await server.send("GET", "/ITEMS/").status == 200)
        let login = try await server.send("POST", "/authentication", json: #"{"strategy": "local", "email": "a@b.c", "password": "pw"}"#)
        #expect(login.status == 201)
        #expect(login.json["authentication"]?.objectValue?.keys == ["strategy", "accessToken", "payload"])
        #expect(login.json["authentication"]?["payload"]?["iss"] == "feathers")
        #expect(login.json["authentication"]?["payload"]?.objectValue?.keys == ["iat", "exp", "aud", "iss", "sub", "jti"])
        // The authentication service is a service route too; OPTIONS is cors()'s preflight
        // (FeathersFidelityTests has Express's own, without cors).
        #expect(login.headers["allow"] == "POST,DELETE")
        let options = try await server.send("OPTIONS", "/items")
        #expect(options.status == 204 && options.text.isEmpty && options.headers["allow"] == nil
            && options.headers["access-control-allow-methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        // A JavaScript error in v4 shows data and errors.
        #expect(try await server.send("DELETE", "/authentication/x").text
            == #"{"name":"GeneralError","message":"Cannot read properties of undefined (reading 'accessToken')","code":500,"className":"general-error","data":{},"errors":{}}"#)
    }
}
