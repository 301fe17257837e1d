import Foundation
import MockStackTesting
import Testing
import WidgetAPI

/// The wrapper against `Recorded/widgets`: the app folder `mockstack record` wrote while a
/// live server (here the shipped `example` app) answered these same calls. A spawned server
/// serves it at `/widgets`, as `mockstack serve --fixtures Recorded` would.
@Suite struct RecordedAppTests {
    static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Recorded")

    @Test func theRecordedAppAnswersAsTheLiveServerDid() async throws {
        try await withMockStack(.spawned(), apps: ["widgets"], fixtures: [Self.recorded]) { mock in
            let client = WidgetClient(.custom(try mock.url(for: "widgets")))
            #expect(try await client.hello() == Greeting(result: "Hello, World!"))
            let page = try await client.widgets()
            #expect(page.total == 18)
            #expect(page.results.count == 18)
            #expect(page.results.first == Widget(id: 1, name: "Widget 01", color: "green", price: 3.75, inStock: true, tags: ["demo", "static"]))
            #expect(try await client.create(NewWidget(name: "Sprocket")) == CreatedWidget(id: 7, name: "Sprocket", created: true))
            let sent = try await mock.requests(app: "widgets", method: "POST")
            #expect(sent.map(\.path) == ["/widgets/widgets"])
            #expect(sent.first?.bodyText == #"{"name":"Sprocket"}"#)
        }
    }

    @Test func aCallTheRecordingNeverSawIsA404() async throws {
        try await withMockStack(.spawned(), apps: ["widgets"], fixtures: [Self.recorded]) { mock in
            let client = WidgetClient(.custom(try mock.url(for: "widgets")))
            await #expect(throws: WidgetAPIError.self) { _ = try await client.widget(id: 7) }
        }
    }
}
