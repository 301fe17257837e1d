import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer outside 2xx, with what the server said.
public struct WidgetAPIError: Error, Sendable, Equatable {
    public var status: Int
    public var body: String
    public init(status: Int, body: String) { (self.status, self.body) = (status, body) }
}

/// The wrapper: a route in, a decoded answer out, over URLSession.
public struct WidgetClient: Sendable {
    public let baseURL: URL
    private let session: URLSession

    public init(_ environment: WidgetEnvironment = .production, session: URLSession = .shared) {
        baseURL = environment.baseURL
        self.session = session
    }

    public func hello() async throws -> Greeting { try await send(.hello) }
    public func widgets() async throws -> WidgetPage { try await send(.widgets) }
    public func widget(id: Int) async throws -> Widget { try await send(.widget(id: id)) }
    public func create(_ widget: NewWidget) async throws -> CreatedWidget { try await send(.createWidget(widget)) }

    /// Sends `route` and decodes its answer; anything outside 2xx throws ``WidgetAPIError``.
    public func send<Answer: Decodable>(_ route: WidgetRoute, as: Answer.Type = Answer.self) async throws -> Answer {
        let (data, response) = try await session.data(for: try route.urlRequest(baseURL: baseURL))
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw WidgetAPIError(status: status, body: String(decoding: data, as: UTF8.self)) }
        return try JSONDecoder().decode(Answer.self, from: data)
    }
}
