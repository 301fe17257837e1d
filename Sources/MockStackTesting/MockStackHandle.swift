public import Foundation
public import MockStackWire

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
    /// - Throws: ``UnknownAppError`` when the server serves no such app: it names the apps
    ///   served, the names near a typo, and says when the app is in the fixtures but was not
    ///   loaded (add it to `apps:`).
    public func url(for app: String) throws(UnknownAppError) -> URL {
        guard let url = ready.url(for: app).flatMap(URL.init(string:)) else {
            throw UnknownAppError(app: app, apps: ready.apps.map(\.name), notLoaded: ready.notLoaded)
        }
        return url
    }
}
