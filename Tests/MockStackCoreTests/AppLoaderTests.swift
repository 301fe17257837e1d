import Testing
@testable import MockStackCore

@Suite struct AppLoaderTests {
    static let manifest = """
        {
          "kind": "static",
          "routes": [
            { "path": "/hello", "fixture": "hello.json" },
            { "method": "POST", "path": "/things", "fixture": "thing.json", "status": 201 }
          ]
        }
        """

    func load(_ files: [String: String]) throws(FixtureErrors) -> [any MockApp] {
        try AppLoader().load(from: InMemoryFixtureSource(files: files))
    }

    func diagnostics(_ files: [String: String]) -> [String] {
        do {
            _ = try load(files)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func loadsAStaticAppWithDefaultsFromItsFolder() throws {
        let apps = try load(["demo/app.json": Self.manifest, "demo/hello.json": #"{ "a" : 1 }"#, "demo/thing.json": "{}"])
        #expect(apps.count == 1)
        #expect(apps[0].name == "demo")
        #expect(apps[0].mount == "/demo")
        #expect(apps[0].routes == [
            RouteDescription(name: "hello.json", methods: ["GET"], path: "/hello"),
            RouteDescription(name: "thing.json", methods: ["POST"], path: "/things"),
        ])
    }

    @Test func reportsEveryMistakeWithFileLineColumnAndPointer() {
        let broken = """
            {
              "kind": "static",
              "mount": "test/",
              "rotues": [],
              "routes": [
                { "path": "/a", "fixture": "missing.json" },
                { "path": "/b", "fixture": "../secret.json", "status": 99 },
                { "method": "BREW", "path": "c", "fixture": "bad.json" }
              ]
            }
            """
        #expect(diagnostics(["demo/app.json": broken, "demo/bad.json": "{\n  \"x\": tru\n}"]) == [
            "Fixtures/demo/app.json:3:12: /mount: mount 'test/' must start with '/' and name at least one segment (use --expose to serve an app at a port's root)",
            "Fixtures/demo/app.json:4:13: /rotues: unknown key 'rotues' (expected one of: $schema, description, kind, mount, name, routes)",
            "Fixtures/demo/app.json:6:32: /routes/0/fixture: no file 'missing.json' in Fixtures/demo",
            "Fixtures/demo/app.json:7:60: /routes/1/status: 99 is out of range 200...599",
            "Fixtures/demo/app.json:7:32: /routes/1/fixture: '../secret.json' must be a relative path inside the app folder (no leading '/', no '..', hidden or empty segments)",
            "Fixtures/demo/app.json:8:17: /routes/2/method: method 'BREW' is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
            "Fixtures/demo/app.json:8:33: /routes/2/path: path 'c' must start with '/' and carry no query",
            "Fixtures/demo/bad.json:2:8: /x: invalid JSON: invalid literal, expected 'true'",
        ])
    }

    /// A fixture may not answer with an interim status or set the headers that frame the answer
    /// on the connection: either would break the framing for the requests that follow.
    @Test func refusesInterimStatusesAndFramingHeaders() {
        let manifest = #"{"kind": "static", "routes": [{"path": "/a", "fixture": "a.json", "status": 101, "headers": {"Content-Length": "1", "transfer-encoding": "chunked", "X-Ok": "1"}}]}"#
        #expect(diagnostics(["demo/app.json": manifest, "demo/a.json": "{}"]) == [
            "Fixtures/demo/app.json:1:77: /routes/0/status: 101 is out of range 200...599",
            "Fixtures/demo/app.json:1:112: /routes/0/headers/Content-Length: Content-Length is the server's to set (it frames the answer on the connection); a stub or fixture may not set it",
            "Fixtures/demo/app.json:1:138: /routes/0/headers/transfer-encoding: transfer-encoding is the server's to set (it frames the answer on the connection); a stub or fixture may not set it",
        ])
    }

    /// A header a fixture sets (or its content type) is sent on every answer: bytes a head cannot
    /// carry are reported when the fixtures load, naming the field.
    @Test func refusesHeaderBytesAHeadCannotCarry() {
        let manifest = #"{"kind": "static", "routes": [{"path": "/a", "fixture": "a.json", "contentType": "text/plain\u0000", "headers": {"X-Nul": "a\u0000b", "X-Accent": "caf\u00e9", "X-Tab": "a\tb"}}]}"#
        let problems = diagnostics(["demo/app.json": manifest, "demo/a.json": "{}"]).map { $0.drop { $0 != " " }.dropFirst() }
        #expect(problems == [
            "/routes/0/contentType: the value of Content-Type holds a control character (U+0000); a header value may hold visible ASCII, spaces and tabs",
            "/routes/0/headers/X-Nul: the value of X-Nul holds a control character (U+0000); a header value may hold visible ASCII, spaces and tabs",
            "/routes/0/headers/X-Accent: the value of X-Accent holds a character outside ASCII (U+00E9); a header value may hold visible ASCII, spaces and tabs",
        ])
    }

    @Test func reportsManifestSyntaxErrorsAndUnknownKinds() {
        #expect(diagnostics(["a/app.json": "{\n  \"kind\": \"static\",,\n}"]) == ["Fixtures/a/app.json:2:20: invalid JSON: expected a quoted member name, found ','"])
        #expect(diagnostics(["a/app.json": #"{"kind": "graphql"}"#]) == ["Fixtures/a/app.json:1:10: /kind: unknown kind 'graphql' (expected one of: static)"])
        #expect(diagnostics(["a/app.json": #"{"routes": []}"#]) == ["Fixtures/a/app.json:1:1: /kind: required string is missing"])
    }

    @Test func rejectsDuplicateMountsAndReservedOnes() {
        let one = #"{"kind":"static","mount":"/same","routes":[]}"#
        #expect(diagnostics(["a/app.json": one, "b/app.json": one]) == ["Fixtures/b/app.json:1:26: /mount: mount '/same' is already used by Fixtures/a/app.json:1:26"])
        #expect(diagnostics(["a/app.json": #"{"kind":"static","mount":"/__mockstack/x","routes":[]}"#]).first?.contains("reserves") == true)
    }

    @Test func anEmptyTreeIsAnError() {
        #expect(diagnostics(["README.md": "x"]) == ["Fixtures:1:1: no app folders with an app.json manifest"])
    }
}

@Suite struct StaticAppTests {
    let app: any MockApp

    init() throws {
        app = try AppLoader().load(from: InMemoryFixtureSource(files: [
            "demo/app.json": AppLoaderTests.manifest, "demo/hello.json": #"{ "a" : 1 }"#, "demo/thing.json": #"{"id":7}"#,
        ]))[0]
    }

    func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        app.respond(to: HTTPRequest(method: method, target: "/demo" + path, headers: headers).routed(toMount: "/demo"))
    }

    @Test func servesTheFixtureCompactedWithAnETag() {
        let response = send(.get, "/hello")
        #expect(response.status == 200)
        #expect(response.body == Array(#"{"a":1}"#.utf8))
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.headers["ETag"] == EntityTag(of: Array(#"{"a":1}"#.utf8)).headerValue)
        #expect(send(.post, "/things").status == 201)
    }

    @Test func answersIfNoneMatchWith304() {
        let tag = send(.get, "/hello").headers["ETag"]!
        let notModified = send(.get, "/hello", headers: ["If-None-Match": tag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["ETag"] == tag)
        #expect(send(.get, "/hello", headers: ["If-None-Match": "\"nope\""]).status == 200)
    }

    @Test func headIsAnsweredLikeGet() {
        // The app answers HEAD exactly like GET; the transport drops the body on the wire.
        #expect(send(.head, "/hello") == send(.get, "/hello"))
    }

    @Test func unknownPathsAre404AndOtherMethods405WithAllow() {
        let missing = send(.get, "/nope")
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == #"{"status":404,"error":"Not Found","message":"No route /nope in app 'demo' (mounted at /demo)"}"#)
        let wrongVerb = send(.delete, "/hello")
        #expect(wrongVerb.status == 405)
        #expect(wrongVerb.headers["Allow"] == "GET, HEAD")
        #expect(String(decoding: wrongVerb.body, as: UTF8.self) == #"{"status":405,"error":"Method Not Allowed","message":"DELETE is not allowed on /hello; allowed: GET, HEAD"}"#)
    }
}

@Suite struct MountTableTests {
    @Test func matchesWholeSegmentsLongestFirst() throws {
        let apps = try AppLoader().load(from: InMemoryFixtureSource(files: [
            "a/app.json": #"{"kind":"static","mount":"/test","routes":[]}"#,
            "b/app.json": #"{"kind":"static","mount":"/test/inner","routes":[]}"#,
        ]))
        let table = MountTable(apps: apps)
        #expect(table.app(owning: "/test")?.name == "a")
        #expect(table.app(owning: "/test/api/Hello")?.name == "a")
        #expect(table.app(owning: "/test/inner/x")?.name == "b")
        #expect(table.app(owning: "/testing") == nil)
    }
}
