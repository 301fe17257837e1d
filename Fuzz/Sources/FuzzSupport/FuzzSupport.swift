import Foundation
import MockStack
public import MockStackCore

/// What every fuzz target shares: the shipped apps, loaded once, and a way to fail loudly.
public enum Fuzz {
    /// The repository's `Fixtures/`, from this file's path.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A shipped app, loaded once per process, with its data sets.
    public static func app(_ name: String) -> any MockApp {
        do {
            let source = try SelectedFixtureSource(DirectoryFixtureSource(root: fixtures), folders: [name])
            guard let app = try AppLoader.standard.load(from: source).first else { fatalError("no app \(name)") }
            return app
        } catch {
            fatalError("cannot load \(name) from \(fixtures.path): \(error)")
        }
    }

    /// Asks `app` (mounted at `/name`) the way the server would.
    public static func ask(_ app: any MockApp, _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) -> HTTPResponse {
        let request = HTTPRequest(method: method, target: app.mount + target, headers: headers, body: body)
        return app.respond(to: request.routed(toMount: app.mount))
    }

    /// A broken invariant: libFuzzer records the input that broke it as a crash.
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }

    /// An answer to bad input must be a client error, never a 5xx the app did not mean.
    public static func requireNoServerError(_ response: HTTPResponse, _ what: @autoclosure () -> String) {
        require(response.status < 500, "\(what()) answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    }

    /// The input as text: invalid UTF-8 becomes U+FFFD, as a server decoding a query would.
    public static func text(_ start: UnsafeRawPointer, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    public static func bytes(_ start: UnsafeRawPointer, _ count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: start, count: count))
    }
}
