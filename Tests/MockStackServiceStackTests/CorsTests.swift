import Foundation
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The cross-origin headers of the shipped hosts, as their real ones are set up:
/// test.servicestack.net and AI Server register ServiceStack's CorsFeature with an origin
/// whitelist; techstacks.io uses ASP.NET Core's CORS middleware.
@Suite struct CorsTests {
    static let techStacks = try! TestHost.load("techstacks")
    static let ai = try! TestHost.load("ai")

    private func headers(_ response: HTTPResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }.filter { $0.hasPrefix("Access-Control-") || $0.hasPrefix("Vary") }
    }

    @Test func theTestHostSendsCorsFeaturesHeadersOnEveryAnswer() {
        let global = ["Access-Control-Allow-Methods: GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD",
                      "Access-Control-Allow-Headers: Content-Type, Allow, Authorization, X-Args",
                      "Access-Control-Allow-Credentials: true", "Access-Control-Max-Age: 600"]
        // A whitelisted origin is echoed; any other gets the rest alone, as does a request without one.
        let allowed = TestHost.call(.get, "/api/Hello?name=World", headers: ["Origin": "http://localhost:8080"])
        #expect(allowed.text == #"{"result":"Hello, World!"}"#)
        #expect(headers(allowed) == ["Access-Control-Allow-Origin: http://localhost:8080"] + global)
        #expect(headers(TestHost.call(.get, "/api/Hello?name=World", headers: ["Origin": "http://evil.example"])) == global)
        #expect(headers(TestHost.call(.get, "/api/Hello?name=World")) == global)
        // Errors carry them too.
        #expect(headers(TestHost.call(.get, "/api/ThrowType?type=NotFound")) == global)

        // Every OPTIONS is answered by the feature: 200, no body.
        let preflight = TestHost.call(.options, "/api/Hello", headers: ["Origin": "http://localhost", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 200 && preflight.body.isEmpty)
        #expect(headers(preflight) == ["Access-Control-Allow-Origin: http://localhost"] + global)
        #expect(TestHost.call(.options, "/no/such/path").status == 200)
        // Journaled, and matched by stubs, as the middleware's.
        #expect(preflight.operation == "CorsFeature")
        #expect(TestHost.test.operation(for: HTTPRequest(method: .options, target: "/api/Hello")) == "CorsFeature")
    }

    @Test func aiServerWhitelistsItsOwnOrigin() {
        let preflight = TestHost.call(.options, "/api/OpenAiChatCompletion", headers: ["Origin": "https://localhost:5001"], app: Self.ai)
        #expect(preflight.status == 200)
        #expect(headers(preflight) == ["Access-Control-Allow-Origin: https://localhost:5001",
                                       "Access-Control-Allow-Methods: GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD",
                                       "Access-Control-Allow-Headers: Content-Type", "Access-Control-Max-Age: 600"])
    }

    @Test func techStacksAnswersAsASPNETCoresMiddleware() {
        // Nothing without an allowed Origin.
        #expect(headers(TestHost.call(.get, "/api/GetConfig", app: Self.techStacks)).isEmpty)
        #expect(headers(TestHost.call(.get, "/api/GetConfig", headers: ["Origin": "http://evil.example"], app: Self.techStacks)).isEmpty)
        let allowed = TestHost.call(.get, "/api/GetConfig", headers: ["Origin": "http://localhost:5173"], app: Self.techStacks)
        #expect(allowed.status == 200)
        #expect(headers(allowed) == ["Access-Control-Allow-Origin: http://localhost:5173", "Access-Control-Allow-Credentials: true", "Vary: Origin"])

        let request: HTTPHeaders = ["Origin": "https://localhost:5001", "Access-Control-Request-Method": "POST",
                                    "Access-Control-Request-Headers": "content-type"]
        let preflight = TestHost.call(.options, "/api/FindTechnologies", headers: request, app: Self.techStacks)
        #expect(preflight.status == 204 && preflight.body.isEmpty && preflight.operation == "UseCors")
        // No methods are configured, so none are listed.
        #expect(headers(preflight) == ["Access-Control-Allow-Origin: https://localhost:5001", "Access-Control-Allow-Credentials: true",
                                       "Access-Control-Allow-Headers: Content-Type,Allow,Authorization", "Access-Control-Max-Age: 3600",
                                       "Vary: Origin"])
        // A refused origin's preflight is a bare 204.
        var refused = request
        refused.set("Origin", "http://evil.example")
        let bare = TestHost.call(.options, "/api/FindTechnologies", headers: refused, app: Self.techStacks)
        #expect(bare.status == 204 && headers(bare).isEmpty)
        // An OPTIONS that is no preflight goes to the app, as the middleware lets it through.
        #expect(Self.techStacks.operation(for: HTTPRequest(method: .options, target: "/api/FindTechnologies")) == "FindTechnologies")
    }
}
