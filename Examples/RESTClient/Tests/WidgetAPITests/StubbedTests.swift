import Foundation
import MockStackTesting
import Testing
import WidgetAPI

/// The wrapper against runtime stubs: answers no fixture holds, set up by the test itself on a
/// session of the shared server (the shipped `example` app at `/example`).
@Suite struct StubbedTests {
    @Test func aStubbedWidgetDecodes() async throws {
        try await withMockStackSession(apps: ["example"]) { session in
            try await session.stub(.get("/example/widgets/42"), .json(["id": 42, "name": "Stubbed", "color": "red", "price": .number(JSONNumber(9.5))]))
            let client = WidgetClient(.custom(try session.url(for: "example")))
            #expect(try await client.widget(id: 42) == Widget(id: 42, name: "Stubbed", color: "red", price: 9.5, inStock: nil, tags: nil))
            try await session.expectRequests(app: "example", method: "GET", path: "/example/widgets/42", count: 1)
        }
    }

    @Test func aServerErrorThrowsWithItsStatusAndBody() async throws {
        try await withMockStackSession(apps: ["example"]) { session in
            try await session.stub(.get("/example/widgets"), .text("down for maintenance", status: 503))
            let client = WidgetClient(.custom(try session.url(for: "example")))
            await #expect(throws: WidgetAPIError(status: 503, body: "down for maintenance")) { _ = try await client.widgets() }
        }
    }

    @Test func eachRouteBuildsItsRequest() throws {
        let base = WidgetEnvironment.production.baseURL
        let create = try WidgetRoute.createWidget(NewWidget(name: "Cog")).urlRequest(baseURL: base)
        #expect(create.httpMethod == "POST")
        #expect(create.url?.absoluteString == "https://api.widgets.example.com/v1/widgets")
        #expect(create.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(create.httpBody == Data(#"{"name":"Cog"}"#.utf8))
        let one = try WidgetRoute.widget(id: 3).urlRequest(baseURL: WidgetEnvironment.development.baseURL)
        #expect(one.httpMethod == "GET")
        #expect(one.url?.absoluteString == "http://127.0.0.1:8080/example/widgets/3")
        #expect(one.httpBody == nil)
    }
}
