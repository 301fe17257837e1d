@testable import MockStackControl
import MockStackCore
import Testing

/// The control plane's one route table: dispatch, each `405` and its `Allow`, and the `404`'s
/// list of endpoints, all read from it.
@Suite struct ControlRouteTests {
    let harness = ControlHarness()

    /// Every endpoint and the methods it allows, as `Allow` lists them.
    static let allowed: [(path: String, allow: String)] = [
        ("/__mockstack", "GET, HEAD"), ("/__mockstack/", "GET, HEAD"), ("/__mockstack/health", "GET, HEAD"),
        ("/__mockstack/apps", "GET, HEAD"), ("/__mockstack/requests/count", "POST"),
        ("/__mockstack/requests/find", "POST"),
        ("/__mockstack/requests/wait", "GET, HEAD, POST"), ("/__mockstack/requests/unmatched", "GET, HEAD"),
        ("/__mockstack/requests", "DELETE, GET, HEAD"), ("/__mockstack/reset", "POST"),
        ("/__mockstack/stubs", "DELETE, GET, HEAD, POST"), ("/__mockstack/stubs/abc", "DELETE"),
        ("/__mockstack/stubs/", "DELETE"),
        ("/__mockstack/scenarios", "GET, HEAD"), ("/__mockstack/scenarios/reset", "POST"),
        ("/__mockstack/scenarios/cart/state", "PUT"), ("/__mockstack/scenarios/reset/state", "PUT"),
        ("/__mockstack/sockets", "GET, HEAD"), ("/__mockstack/sockets/activity", "DELETE, GET, HEAD"),
        ("/__mockstack/sockets/abc", "DELETE"), ("/__mockstack/events", "POST"), ("/__mockstack/events/delay", "PUT"),
        ("/__mockstack/server-events", "GET, HEAD, POST"), ("/__mockstack/server-events/wait", "POST"),
        ("/__mockstack/sessions", "GET, HEAD"), ("/__mockstack/sessions/s1", "DELETE"),
    ]

    @Test(arguments: allowed)
    func aMethodNotAllowedIsRefusedWithTheEndpointsAllow(path: String, allow: String) {
        let allowed = allow.split(separator: ", ").map(String.init)
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        for method in methods where !allowed.contains(method.rawValue) {
            let response = harness.send(method, path)
            #expect(response == PlainError.methodNotAllowed(method, path: path, allowed: allowed), "\(method) \(path)")
            #expect(response.headers["Allow"] == allow)
        }
    }

    @Test func anUnknownMethodIsNamedAsSuch() {
        var request = HTTPRequest(method: .get, target: "/__mockstack/reset")
        request.methodName = "PURGE"
        let response = harness.root.respond(to: request)
        #expect(response.status == 405)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("This method is not allowed on /__mockstack/reset; allowed: POST"))
    }

    @Test func anUnknownEndpointListsEveryEndpoint() {
        let response = harness.send(.get, "/__mockstack/nope")
        let message = "No control endpoint /__mockstack/nope; available: /__mockstack/health, /__mockstack/apps, "
            + "/__mockstack/requests, /__mockstack/reset, /__mockstack/stubs, /__mockstack/scenarios, "
            + "/__mockstack/sockets, /__mockstack/events, /__mockstack/server-events, /__mockstack/sessions, /__mockstack/tls"
        #expect(response == PlainError.response(404, message))
    }

    @Test func aSessionsControlPlaneHasNoSessionsEndpoint() {
        let response = harness.send(.get, "/__session/s1/__mockstack/sessions")
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self).hasSuffix(
            "available: /__mockstack/health, /__mockstack/apps, /__mockstack/requests, /__mockstack/reset, "
                + "/__mockstack/stubs, /__mockstack/scenarios, /__mockstack/sockets, /__mockstack/events, "
                + "/__mockstack/server-events\"}"))
        #expect(harness.send(.delete, "/__session/s1/__mockstack/sessions/s1").status == 404)
    }

    @Test func variablePathsTakeWhatIsBetweenPrefixAndSuffix() {
        let state = ControlRoute(.variable(prefix: "/scenarios/", suffix: "/state", allowsEmpty: false), [])
        #expect(state.variable(in: "/scenarios/cart/state") == "cart")
        #expect(state.variable(in: "/scenarios//state") == nil)
        #expect(state.variable(in: "/scenarios/state") == nil)
        #expect(state.variable(in: "/scenarios/cart") == nil)
        let stub = ControlRoute(.variable(prefix: "/stubs/", suffix: "", allowsEmpty: true), [])
        #expect(stub.variable(in: "/stubs/") == "")
        #expect(stub.variable(in: "/stubs/a/b") == "a/b")
        #expect(stub.variable(in: "/stubs") == nil)
        let exact = ControlRoute(.exact(["", "/"]), [])
        #expect(exact.variable(in: "") == "" && exact.variable(in: "/") == "" && exact.variable(in: "//") == nil)
    }

    @Test func allowAndSectionComeFromTheDeclaration() {
        let route = ControlRoute("/requests/wait", [.on(.post) { _, _, _ in HTTPResponse(status: 204) },
                                                    .reading { _, _, _ in HTTPResponse(status: 200) }])
        #expect(route.allowed == ["GET", "HEAD", "POST"])
        #expect(route.section == "requests")
        #expect(route.handler(for: .head) != nil && route.handler(for: .put) == nil)
        #expect(ControlPlane.endpoints.map(\.section) == ["health", "apps", "requests", "reset", "stubs", "scenarios",
                                                          "sockets", "events", "server-events", "sessions", "tls"])
    }
}
