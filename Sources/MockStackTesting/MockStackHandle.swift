public import Foundation
public import MockStack

/// A running mockstack a test talks to, spawned or in-process.
public protocol MockStackHandle: MockStackControlling {
    /// What the server announced when it became ready.
    var ready: ReadyEvent { get }
    /// Stops the server; waits until it has. Idempotent.
    func stop()
}

extension MockStackHandle {
    /// The main port's base URL (`http://127.0.0.1:54321`).
    public var baseURL: URL { URL(string: ready.url)! }

    /// The base URL of an app, i.e. the URL a client library's `baseUrl` should be:
    /// `url(for: "test")` → `http://127.0.0.1:54321/test`.
    public func url(for app: String) -> URL {
        guard let url = ready.url(for: app) else {
            preconditionFailure("mockstack has no app named '\(app)'; apps: \(ready.apps.map(\.name).joined(separator: ", "))")
        }
        return URL(string: url)!
    }
}
