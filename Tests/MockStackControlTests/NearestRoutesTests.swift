@testable import MockStackControl
import MockStackCore
import Testing

@Suite struct NearestRoutesTests {
    let routes = NearestRoutes(apps: ControlHarness.apps)

    @Test func aPathWithoutItsMountIsNearestToTheMountedRoute() {
        #expect(routes.nearest(to: "/api/Hello").first?.path == "/test/api/Hello")
        #expect(routes.nearest(to: "/messages/3").first?.path == "/feathers/messages/:id")
    }

    @Test func caseAndATypoAreForgiven() {
        #expect(routes.nearest(to: "/TEST/api/helo").first?.path == "/test/api/Hello")
        #expect(routes.nearest(to: "/feathers/mesages").first?.path == "/feathers/messages")
    }

    @Test func placeholdersTakeTheRequestsSegment() {
        #expect(routes.nearest(to: "/test/hello").first?.path == "/test/hello/{Name}")
        #expect(routes.nearest(to: "/test/helo/World").first?.path == "/test/hello/{Name}")
        #expect(routes.nearest(to: "/feathers/messages/7/x").first?.path == "/feathers/messages/:id")
    }

    @Test func amongEqualsTheAppsInUseComeFirst() {
        // Two apps with the same route: without the mount, both are an exact match.
        let twins = NearestRoutes(apps: [
            RouteApp(name: "ai", mount: "/ai", routes: [RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello")]),
            RouteApp(name: "test", mount: "/test", routes: [RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello")]),
        ])
        #expect(twins.nearest(to: "/api/Hello").map(\.path) == ["/ai/api/Hello", "/test/api/Hello"])
        #expect(twins.nearest(to: "/api/Hello", used: ["test": 2, "ai": 1]).map(\.path) == ["/test/api/Hello", "/ai/api/Hello"])
        // Use never outweighs distance.
        #expect(twins.nearest(to: "/ai/api/Hello", used: ["test": 9]).first?.path == "/ai/api/Hello")
    }

    @Test func nothingNearIsNothing() {
        #expect(routes.nearest(to: "/" + String(repeating: "z", count: 40)).isEmpty)
    }

    @Test func theDistanceIsBounded() {
        #expect(NearestRoutes.distance("kitten", "sitting", atMost: 3) == 3)
        #expect(NearestRoutes.distance("kitten", "sitting", atMost: 2) == nil)
        #expect(NearestRoutes.distance("", "abc", atMost: 5) == 3)
        // Only the first 256 bytes are compared: two long paths differing past them are equal.
        let long = String(repeating: "a", count: 300)
        #expect(NearestRoutes.distance(long + "x", long + "y", atMost: 1) == 0)
    }
}
