import Foundation
import MockStack
import MockStackAuth
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// What real clients found a real Feathers server does, over loopback on the shipped
/// apps: a `$or` sift cannot read, unknown methods, the users service restricted to the caller,
/// the JWT's claim bytes, and the `cors()` middleware.
@Suite(.timeLimit(.minutes(3)))
struct FeathersFidelityTests {
    let mock: InProcessMockStack
    let server: FeathersClient
    let v4: FeathersClient

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers", "feathers-v4"]))
        server = FeathersClient(base: try mock.url(for: "feathers").absoluteString)
        v4 = FeathersClient(base: try mock.url(for: "feathers-v4").absoluteString)
    }

    private func login(_ client: FeathersClient? = nil, email: String = "test@example.com", password: String = "secret") async throws -> String {
        let reply = try await (client ?? server).send("POST", "/authentication", json: #"{"strategy": "local", "email": "\#(email)", "password": "\#(password)"}"#)
        return try #require(reply.json["accessToken"]?.stringValue, "\(reply.status) \(reply.text)")
    }

    private var port: Int { get throws { try #require(mock.url(for: "feathers").port) } }

    // MARK: Item 5: a $or or $and that is not a list

    @Test func aGroupThatIsNotAListIsSiftsGeneralError() async throws {
        // A service without a query schema, as a hand-written app has: sift reads the query as it is.
        let app = try FeathersTestServer(services: #"{"messages": {"paginate": {"default": 10}}}"#)
        try await app.seed("/messages", [#"{"text": "a", "userId": 0}"#, #"{"text": "b", "userId": 0}"#, #"{"text": "c", "userId": 0}"#])
        func error(_ message: String) -> String { #"{"name":"GeneralError","message":"\#(message)","code":500,"className":"general-error"}"# }
        let cases: [(query: String, message: String)] = [
            ("%24or=text", "this.params.map is not a function"),
            ("%24or%5Btext%5D=x", "this.params.map is not a function"),
            ("%24or=", "$and/$or/$nor must be a nonempty array"),
            ("%24and=text", "params.map is not a function"),
            ("userId=0&%24and%5Ba%5D=1&%24or=x", "params.map is not a function"),
        ]
        for (query, message) in cases {
            let reply = try await app.send("GET", "/messages?" + query)
            #expect(reply.status == 500 && reply.text == error(message), "\(query)")
        }
        // A list is fine; get, patch and remove fail only on a record that exists.
        #expect(try await app.send("GET", "/messages?%24or%5B0%5D%5BuserId%5D%5B%24ne%5D=x").json["total"] == 3)
        #expect(try await app.send("GET", "/messages/9?%24or=x").text
            == #"{"name":"NotFound","message":"No record found for id '9'","code":404,"className":"not-found"}"#)
        #expect(try await app.send("GET", "/messages/0?%24or=x").text == error("this.params.map is not a function"))
        #expect(try await app.send("PATCH", "/messages/0?%24or=x", json: #"{"text": "no"}"#).status == 500)
        #expect(try await app.send("DELETE", "/messages/0?%24or=x").status == 500)
        // The multi rule comes first.
        #expect(try await app.send("DELETE", "/messages?%24or=x").json["message"] == "Can not remove multiple entries")
        // update replaces the record, then fails reading it back with the query.
        #expect(try await app.send("PUT", "/messages/0?%24or=x", json: #"{"text": "replaced"}"#).text
            == error("this.params.map is not a function"))
        #expect(try await app.send("GET", "/messages/0").text == #"{"text":"replaced","id":0}"#)
        // The shipped app's services have query schemas, which refuse it first (400).
        let headers = ["Authorization": try await login()]
        #expect(try await server.send("GET", "/messages?%24or=text", headers: headers).json["message"] == "validation failed")
        // A schema refuses it first (400); the v4 app's query rules are its own.
        #expect(try await server.send("GET", "/people?%24or=x").status == 400)
    }

    // MARK: Item 6: methods

    @Test func anUnknownMethodIsNamedAsReceived() throws {
        let reply = try rawExchange(port: try port, "PURGE /feathers/messages HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(reply.statusLine == "HTTP/1.1 405 Method Not Allowed")
        #expect(reply.text == #"{"name":"MethodNotAllowed","message":"Method PURGE not allowed","code":405,"className":"method-not-allowed"}"#)
        let v4Reply = try rawExchange(port: try port, "MKCOL /feathers-v4/people/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(v4Reply.text == #"{"name":"MethodNotAllowed","message":"Method MKCOL not allowed","code":405,"className":"method-not-allowed","errors":{}}"#)
    }

    @Test(arguments: ["PUSH", "FOO", "get", "DESCRIBE", "PRI"])
    func aMethodNodesParserRefusesIsItsBare400(method: String) throws {
        let connection = try RawConnection(port: try port)
        try connection.send("\(method) /feathers/messages HTTP/1.1\r\nHost: x\r\n\r\nGET /feathers/people HTTP/1.1\r\nHost: x\r\n\r\n")
        let (bytes, end) = connection.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        // Node's bytes are the status line and Connection: close; the transport adds its
        // Content-Length and Date. No body, and the request behind it is never answered.
        let date = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("Date: ") })
        #expect(text == "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\(date)\r\n\r\n")
        #expect(end == .closed)
    }

    // MARK: Item 7: users

    @Test func usersReachOnlyTheirOwnRecord() async throws {
        #expect(try await server.send("POST", "/users", json: #"{"email": "new@example.com", "password": "pw"}"#).status == 201)
        let headers = ["Authorization": try await login(email: "new@example.com", password: "pw")]
        let notFound = #"{"name":"NotFound","message":"No record found for id '0'","code":404,"className":"not-found"}"#
        #expect(try await server.send("GET", "/users", headers: headers).text == #"[{"email":"new@example.com","id":1}]"#)
        #expect(try await server.send("GET", "/users?id=0", headers: headers).text == #"[{"email":"new@example.com","id":1}]"#)
        #expect(try await server.send("GET", "/users/1", headers: headers).text == #"{"email":"new@example.com","id":1}"#)
        let other = try await server.send("GET", "/users/0", headers: headers)
        #expect(other.status == 404 && other.text == notFound)
        #expect(try await server.send("PATCH", "/users/0", json: #"{"email": "x@example.com"}"#, headers: headers).text == notFound)
        #expect(try await server.send("PUT", "/users/0", json: #"{"email": "x@example.com"}"#, headers: headers).text == notFound)
        #expect(try await server.send("DELETE", "/users/0", headers: headers).text == notFound)
        // User 0 is untouched, and sees only itself.
        #expect(try await server.send("GET", "/users", headers: ["Authorization": try await login()]).text == #"[{"id":0,"email":"test@example.com"}]"#)
        // A v4 generated app has no such resolver.
        _ = try await v4.send("POST", "/users", json: #"{"email": "new@example.com", "password": "pw"}"#)
        let v4Token = try await login(v4, email: "new@example.com", password: "pw")
        #expect(try await v4.send("GET", "/users", headers: ["Authorization": v4Token]).text == #"[{"id":0,"email":"test@example.com"},{"email":"new@example.com","id":1}]"#)
    }

    @Test func ownRecordsOnlyIsForTheEntityService() {
        let manifest = #"{"kind": "feathers", "authentication": {"secret": "s"}, "cors": "yes", "services": {"users": {"ownRecordsOnly": 1}, "items": {"ownRecordsOnly": true}}}"#
        let problems = manifestProblems(manifest)
        #expect(problems == [
            "/cors: expected true or false, found string",
            "/services/items/ownRecordsOnly: ownRecordsOnly is for the authentication's entity service (its records are the users)",
            "/services/users/ownRecordsOnly: expected true or false, found number",
        ])
    }

    // MARK: Item 8: the token's bytes

    @Test(arguments: ["v5", "v4"])
    func tokenClaimsAreJsonwebtokensOrderAndBytes(dialect: String) async throws {
        let client = dialect == "v5" ? server : v4
        var payloads: [String] = []
        for _ in 0..<3 {
            let reply = try await client.send("POST", "/authentication", json: #"{"strategy": "local", "email": "test@example.com", "password": "secret"}"#)
            let token = try #require(reply.json["accessToken"]?.stringValue)
            let parts = token.split(separator: ".")
            #expect(String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self) == #"{"alg":"HS256","typ":"access"}"#)
            let payload = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
            let claims = try #require(reply.json["authentication"]?["payload"])
            let iat = try #require(claims["iat"]?.intValue), jti = try #require(claims["jti"]?.stringValue)
            let issuer = dialect == "v4" ? #","iss":"feathers""# : ""
            #expect(payload == #"{"iat":\#(iat),"exp":\#(iat + 86_400),"aud":"https://yourdomain.com"\#(issuer),"sub":"0","jti":"\#(jti)"}"#)
            // The reply shows the decoded payload with the same bytes.
            #expect(reply.text.contains(#""payload":\#(payload)"#))
            payloads.append(payload)
        }
        #expect(Set(payloads.map { $0.replacing(/[0-9a-f-]{36}|[0-9]{10}/, with: "_") }).count == 1)
    }

    // MARK: Item 10: cors()

    @Test func corsAllowsAnyOriginAndAnswersPreflights() throws {
        let port = try port
        let preflight = try rawExchange(port: port, "OPTIONS /feathers/messages HTTP/1.1\r\nHost: x\r\nOrigin: http://a.test\r\n"
            + "Access-Control-Request-Method: PATCH\r\nAccess-Control-Request-Headers: authorization,content-type\r\n\r\n")
        #expect(preflight.statusLine == "HTTP/1.1 204 No Content" && preflight.body.isEmpty)
        #expect(preflight.headers.filter { $0.0 != "Date" }.map { "\($0.0): \($0.1)" } == [
            "Access-Control-Allow-Origin: *", "Access-Control-Allow-Methods: GET,HEAD,PUT,PATCH,POST,DELETE",
            "Vary: Access-Control-Request-Headers", "Access-Control-Allow-Headers: authorization,content-type",
        ])
        // Any path: cors() runs before the routes. Without requested headers, none are allowed.
        let bare = try rawExchange(port: port, "OPTIONS /feathers/nope HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(bare.status == 204 && bare.header("Access-Control-Allow-Headers") == nil && bare.header("Vary") == "Access-Control-Request-Headers")
        // Every other answer, errors included, allows any origin, first.
        for request in ["GET /feathers/people", "GET /feathers/messages", "GET /feathers/nope", "GET /feathers-v4/people"] {
            let reply = try rawExchange(port: port, "\(request) HTTP/1.1\r\nHost: x\r\nOrigin: http://a.test\r\n\r\n")
            #expect(reply.headers.first.map { "\($0.0): \($0.1)" } == "Access-Control-Allow-Origin: *", "\(request)")
            #expect(reply.header("Vary") == nil)
        }
        let v4Preflight = try rawExchange(port: port, "OPTIONS /feathers-v4/people HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(v4Preflight.status == 204 && v4Preflight.header("Allow") == nil)
    }

    @Test func withoutCorsOptionsIsTheFrameworksOwn() async throws {
        let v5 = try FeathersTestServer(services: #"{"items": {}}"#, members: #""cors": false,"#)
        let options = try await v5.send("OPTIONS", "/items")
        #expect(options.status == 405 && options.headers["access-control-allow-origin"] == nil)
        #expect(options.text == #"{"name":"MethodNotAllowed","message":"Method OPTIONS not allowed","code":405,"className":"method-not-allowed"}"#)
        #expect(try await v5.send("GET", "/items").headers["access-control-allow-origin"] == nil)
        let v4 = try FeathersTestServer(dialect: "v4", services: #"{"items": {"methods": ["find", "get", "create"]}}"#, members: #""cors": false,"#)
        let express = try await v4.send("OPTIONS", "/items")
        #expect(express.status == 200 && express.text == "GET,HEAD,POST" && express.headers["allow"] == "GET,POST")
    }
}
