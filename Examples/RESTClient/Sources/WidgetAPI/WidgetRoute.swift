import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every call the widget API offers, each case carrying its own parameters.
public enum WidgetRoute: Sendable {
    case hello
    case widgets
    case widget(id: Int)
    case createWidget(NewWidget)

    /// The one place a route becomes a request: method, path under the base URL, body.
    public func urlRequest(baseURL: URL) throws -> URLRequest {
        var request = URLRequest(url: baseURL.appending(path: path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = try body() {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        return request
    }

    var method: String {
        switch self {
        case .hello, .widgets, .widget: "GET"
        case .createWidget: "POST"
        }
    }

    var path: String {
        switch self {
        case .hello: "hello"
        case .widgets, .createWidget: "widgets"
        case .widget(let id): "widgets/\(id)"
        }
    }

    private func body() throws -> Data? {
        switch self {
        case .createWidget(let widget): try JSONEncoder().encode(widget)
        case .hello, .widgets, .widget: nil
        }
    }
}

/// Where the API lives: the development server (mockstack's `example` app on `make serve`'s
/// port), production, or any other base URL (a test's mockstack).
public enum WidgetEnvironment: Sendable {
    case development
    case production
    case custom(URL)

    public var baseURL: URL {
        switch self {
        case .development: URL(string: "http://127.0.0.1:8080/example")!
        case .production: URL(string: "https://api.widgets.example.com/v1")!
        case .custom(let url): url
        }
    }
}
