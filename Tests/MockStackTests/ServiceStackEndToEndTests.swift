import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// The `test` and `ai` apps over loopback, driven with URLSession exactly as docs/servicestack.md#what-the-clients-need says the
/// Swift JsonServiceClient drives them: `/api/{Op}`, JSON bodies, query strings for GET,
/// multipart with a `FormBoundary…` boundary, bearer tokens and session cookies.
@Suite(.timeLimit(.minutes(3)))
struct ServiceStackEndToEndTests {
    let mock: InProcessMockStack
    let base: URL

    /// A session that keeps no cookies: each test says exactly what it sends.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures]))
        base = try mock.url(for: "test")
    }

    private func send(_ method: String, _ path: String, json: String? = nil, body: Data? = nil, headers: [String: String] = [:],
                      app: String = "test") async throws -> (status: Int, headers: [String: String], text: String) {
        var request = URLRequest(url: URL(string: try mock.url(for: app).absoluteString + path)!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        if let body { request.httpBody = body }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    @Test func helloOverTheWire() async throws {
        let get = try await send("GET", "/api/Hello?name=World")
        #expect(get.status == 200)
        #expect(get.headers["content-type"] == "application/json; charset=utf-8")
        #expect(get.text == #"{"result":"Hello, World!"}"#)
        let post = try await send("POST", "/api/Hello", json: #"{"name":"World"}"#)
        #expect(post.text == #"{"result":"Hello, World!"}"#)
        let batch = try await send("POST", "/api/Hello%5B%5D", json: #"[{"name":"foo"},{"name":"bar"},{"name":"baz"}]"#)
        #expect(batch.headers["x-autobatch-completed"] == "3")
        #expect(batch.text == #"[{"result":"Hello, foo!"},{"result":"Hello, bar!"},{"result":"Hello, baz!"}]"#)
        let void = try await send("GET", "/api/HelloReturnVoid?")
        #expect(void.status == 204)
        #expect(void.text.isEmpty)
    }

    /// Operations of test.servicestack.net nobody has given a behaviour answer by their metadata:
    /// an echo of the request shaped as the response, or 204 for a void one, by route or `/api`.
    @Test func operationsWithoutABehaviourAnswerByTheirMetadata() async throws {
        let void = try await send("GET", "/api/HelloReturnVoid?id=1")
        #expect(void.status == 204)
        #expect(void.text.isEmpty)
        let wait = try await send("GET", "/api/Wait?forMs=5")
        #expect(wait.status == 200)
        #expect(wait.text == #"{"forMs":5}"#)
        // The host publishes `/hellotypes/{Name}` though HelloTypes has no Name: a request by that
        // route fails as ServiceStack's RestPath fails it; the predefined route answers.
        let unbound = try await send("GET", "/hellotypes/x?string=a&bool=true&int=3")
        #expect(unbound.status == 400)
        #expect(unbound.text.hasPrefix(#"{"responseStatus":{"errorCode":"ArgumentException","message":"Could not find property Name on HelloTypes","#))
        let types = try await send("GET", "/api/HelloTypes?string=a&bool=true&int=3")
        #expect(types.status == 200)
        #expect(types.text == #"{"string":"a","bool":true,"int":3}"#)
        let logs = try await send("GET", "/api/StoreLogs")
        #expect(logs.text == #"{"existingLogs":[]}"#)
    }

    @Test func swiftClientQueryStringsBind() async throws {
        // Values as the Swift client writes them: JSV lists and maps with `[]{}` percent-encoded.
        let query = "id=1&string=a%20b&stringList=%5BA,B%5D&stringMap=%7BA:D%7D&dateTime=/Date(978307200000-0000)/&timeSpan=PT1H"
        let response = try await send("GET", "/api/AllTypes?" + query)
        #expect(response.status == 200)
        #expect(response.text.contains(#""string":"a b","dateTime":"\/Date(978307200000-0000)\/","timeSpan":"PT1H""#))
        #expect(response.text.contains(#""stringList":["A","B"],"stringArray":[],"stringMap":{"A":"D"}"#))
    }

    @Test func errorsCarryTheirStatusAndResponseStatus() async throws {
        let thrown = try await send("PUT", "/api/ThrowType", json: #"{"type":"NotFound","message":"not here"}"#)
        #expect(thrown.status == 404)
        #expect(thrown.headers["content-type"] == "application/json; charset=utf-8")
        #expect(thrown.text.hasPrefix(#"{"responseStatus":{"errorCode":"NotFound","message":"not here","stackTrace":"[ThrowType: "#))
        let validation = try await send("POST", "/api/ThrowValidation", json: #"{"email":"invalidemail"}"#)
        #expect(validation.status == 400)
        #expect(validation.text.hasPrefix(#"{"age":0,"responseStatus":{"errorCode":"InclusiveBetween","message":"'Age' must be between 1 and 120. You entered 0.","errors":["#))
        let unknown = try await send("GET", "/api/NonExistingService")
        #expect(unknown.status == 405)
        #expect(unknown.text.contains(#""message":"The operation does not exist for this service""#))
        let malformed = try await send("POST", "/api/Hello", json: #"{"name":"#)
        #expect(malformed.status == 400)
        #expect(malformed.text.contains(#""errorCode":"SerializationException""#))
    }

    @Test func multipartUploadsWithAFormBoundary() async throws {
        let boundary = "FormBoundary" + UUID().uuidString.uppercased()
        var body = ""
        for (name, value) in [("refId", "zid"), ("tag", "ztag")] {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"test.txt\"\r\nContent-Type: text/plain\r\n\r\nHello World\r\n--\(boundary)--\r\n"
        let headers = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        let response = try await send("POST", "/api/SpeechToText?tag=ztag&refId=zid", body: Data(body.utf8), headers: headers)
        #expect(response.status == 200)
        #expect(response.text == #"{"results":[{"text":"audio, Audio 11, test.txt, text/plain"},{"text":"Tag ztag"},{"text":"RefId zid"}]}"#)

        let truncated = try await send("POST", "/api/SpeechToText", body: Data(body.utf8.dropLast(30)), headers: headers)
        #expect(truncated.status == 400)
        #expect(truncated.text.contains("truncated"))

        let missing = try await send("POST", "/api/SpeechToText", body: Data(body.utf8), headers: ["Content-Type": "multipart/form-data"])
        #expect(missing.status == 400)
        #expect(missing.text.contains("no boundary"))
    }

    /// A TimeSpan one tick past its range, in a query, JSON, a form or JSV,
    /// is the binding error `?Int=abc` gets, and the server goes on serving; the range's own
    /// ends (TimeSpan.MaxValue and MinValue, as .NET parses them) echo back exactly.
    @Test func timeSpansPastTheirRangeAreBindingErrors() async throws {
        func bindingError(_ value: String) -> String {
            #"{"responseStatus":{"errorCode":"SerializationException","message":"Unable to bind to request 'EchoTypes'","#
                + #""stackTrace":"System.Runtime.Serialization.SerializationException: Unable to bind to request 'EchoTypes'\n   at TestServices.Any(EchoTypes request)\n","#
                + #""errors":[{"errorCode":"SerializationException","fieldName":"TimeSpan","message":"'\#(value)' is an Invalid value for 'TimeSpan'"}]}}"#
        }
        for value in ["10675199.23:59:59", "-10675199.02:48:05.4775809", "10675199.02:48:05.4775808", "P10675199DT2H48M5.4775808S"] {
            let query = try await send("GET", "/api/EchoTypes?TimeSpan=" + value)
            #expect(query.status == 400 && query.text == bindingError(value), "\(value)")
            let json = try await send("POST", "/api/EchoTypes", json: #"{"TimeSpan":"\#(value)"}"#)
            #expect(json.status == 400 && json.text == bindingError(value), "\(value)")
            let form = try await send("POST", "/api/EchoTypes", body: Data("TimeSpan=\(value)".utf8),
                                      headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(form.status == 400 && form.text == bindingError(value), "\(value)")
            let jsv = try await send("POST", "/api/EchoTypes", body: Data("{TimeSpan:\(value)}".utf8), headers: ["Content-Type": "application/jsv"])
            #expect(jsv.status == 400 && jsv.text == bindingError(value), "\(value)")
        }
        let echo = #"{"byte":0,"short":0,"int":0,"long":0,"uShort":0,"uInt":0,"uLong":0,"float":0,"double":0,"decimal":0,"#
            + #""dateTime":"\/Date(-62135596800000-0000)\/","timeSpan":"TIMESPAN","dateTimeOffset":"\/Date(-62135596800000+0000)\/","#
            + #""guid":"00000000000000000000000000000000","char":"\u0000"}"#
        let maximum = try await send("GET", "/api/EchoTypes?TimeSpan=10675199.02:48:05.4775807")
        #expect(maximum.status == 200 && maximum.text == echo.replacing("TIMESPAN", with: "P10675199DT2H48M5.4775807S"))
        let minimum = try await send("GET", "/api/EchoTypes?TimeSpan=-10675199.02:48:05.4775808")
        #expect(minimum.status == 200 && minimum.text == echo.replacing("TIMESPAN", with: "-P10675199DT2H48M5.4775808S"))
        #expect(try await send("GET", "/api/Hello?name=alive").text == #"{"result":"Hello, alive!"}"#)
    }

    @Test func bearerTokensAndSessionCookies() async throws {
        let signIn = try await send("POST", "/api/Authenticate", json: #"{"provider":"credentials","userName":"test","password":"test"}"#)
        #expect(signIn.status == 200)
        let token = try #require(try JSONParser().parse(signIn.text).root["bearerToken"]?.stringValue)

        let withBearer = try await send("GET", "/api/TestAuth", headers: ["Authorization": "Bearer \(token)"])
        #expect(withBearer.status == 200)
        #expect(withBearer.text.contains(#""userName":"test","displayName":"test DisplayName""#))

        // The cookies it set, as a cookie store would send them back, authenticate on their own.
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": try #require(signIn.headers["set-cookie"])], for: base)
        #expect(Set(cookies.map(\.name)) == ["ss-tok", "ss-reftok", "ss-id", "ss-pid"])
        let withCookies = try await send("GET", "/api/TestAuth", headers: HTTPCookie.requestHeaderFields(with: cookies))
        #expect(withCookies.status == 200)

        let anonymous = try await send("GET", "/api/TestAuth")
        #expect(anonymous.status == 401)
        #expect(anonymous.text.isEmpty)
        #expect(anonymous.headers["content-type"] == nil)
    }

    @Test func aiServerSpeechToTextWithAnAPIKey() async throws {
        let boundary = "FormBoundary" + UUID().uuidString.uppercased()
        let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"test_audio.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n--\(boundary)--\r\n"
        let headers = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        let refused = try await send("POST", "/api/SpeechToText", body: Data(body.utf8), headers: headers, app: "ai")
        #expect(refused.status == 401)
        #expect(refused.text == #"{"responseStatus":{"errorCode":"Unauthorized","message":"Invalid API Key","errors":[]}}"#)
        var keyed = headers
        keyed["Authorization"] = "Bearer ak-mockstack"
        let answered = try await send("POST", "/api/SpeechToText", body: Data(body.utf8), headers: keyed, app: "ai")
        #expect(answered.status == 200)
        #expect(answered.text.hasPrefix(#"{"results":[{"text":"The first law of thermodynamics"#))
    }

    @Test func metadataPointsBackAtTheServer() async throws {
        let response = try await send("GET", "/types/metadata?IncludeTypes=Hello")
        let json = try JSONParser().parse(response.text).root
        #expect(json["config"]?["baseUrl"]?.stringValue == base.absoluteString)
        #expect(json["operations"]?.arrayValue?.count == 1)
    }

    /// The techstacks app decoded the way the Swift client's synthesized `Codable` DTOs decode
    /// it: collections that are not optional must be present (docs/servicestack.md#what-the-clients-need), keys are camelCase.
    @Test func techStacksAnswersDecodeAsTheSwiftClientDecodesThem() async throws {
        struct Info: Decodable { var tier: String?; var slug: String?; var name: String?; var stacksCount: Int? }
        struct UserInfo: Decodable { var userName: String?; var stacksCount: Int? }
        struct Choice: Decodable { var technologyId: Int?; var name: String? }
        struct Details: Decodable { var id: Int?; var name: String?; var technologyChoices: [Choice]? }
        struct Label: Decodable { var slug: String?; var color: String? }
        struct Category: Decodable { var id: Int?; var name: String?; var slug: String? }
        struct Organization: Decodable { var id: Int?; var postTypes: [String]; var moderatorPostTypes: [String]; var labels: [Label]; var categories: [Category] }
        struct Overview: Decodable {
            var topUsers: [UserInfo]; var topTechnologies: [Info]; var latestTechStacks: [Details]
            var popularTechStacks: [Details]; var allOrganizations: [Organization]; var topTechnologiesByTier: [String: [Info]]
        }
        struct View: Decodable { var id: Int?; var name: String?; var vendorName: String?; var tier: String? }
        struct Page: Decodable { var offset: Int; var total: Int; var results: [View]; var meta: [String: String]? }

        let overview = try await send("GET", "/api/Overview?reload=false", app: "techstacks")
        #expect(overview.status == 200)
        let decoded = try JSONDecoder().decode(Overview.self, from: Data(overview.text.utf8))
        #expect(decoded.topUsers.first?.userName == "demisbellot")
        #expect(decoded.latestTechStacks.first?.technologyChoices?.first?.technologyId == 1)
        #expect(decoded.topTechnologiesByTier.count == 9)

        // The 34 KB first page arrives whole, and again from the response cache.
        let path = "/api/FindTechnologies?NameContains=a&orderByDesc=ViewCount&take=50"
        let first = try await send("GET", path, app: "techstacks")
        let again = try await send("GET", path, app: "techstacks")
        #expect(first.status == 200 && first.text.utf8.count > 30_000)
        #expect(again.text == first.text)
        let page = try JSONDecoder().decode(Page.self, from: Data(first.text.utf8))
        #expect(page.results.count == 50 && page.total > 50 && page.meta == nil)

        let google = try await send("GET", "/technology/search?vendorName=Google&take=3&orderByDesc=ViewCount&fields=Id,Name", app: "techstacks")
        #expect(try JSONDecoder().decode(Page.self, from: Data(google.text.utf8)).results.map(\.id) == [7, 18, 77])
        let create = try await send("POST", "/api/CreateTechnology", json: #"{"name":"Zig","tier":"ProgrammingLanguage"}"#, app: "techstacks")
        #expect(create.status == 401 && create.text.isEmpty)
    }
}
