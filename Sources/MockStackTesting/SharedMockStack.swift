import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
#if canImport(XCTest)
public import XCTest
#endif

/// One mockstack per test process for each mode and set of apps, started on first use and
/// stopped at exit; each test takes a fresh session of it, so parallel tests share the server
/// without sharing state. A spawned one also stops if the test process is killed
/// (``MockStackProcess``).
public enum SharedMockStack {
    private static let servers = Mutex<[String: any MockStackHandle]>([:])

    /// The shared server for `mode` that loads `apps` (all when nil), started now if it is not
    /// running yet. Servers are keyed by both: tests naming the same apps share one.
    public static func server(_ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil) throws -> any MockStackHandle {
        let apps = apps.map { Array(Set($0)).sorted() }
        let key = mode.description + " apps=" + (apps?.joined(separator: ",") ?? "*")
        return try servers.withLock { servers in
            if let running = servers[key] { return running }
            let started = try mode.start(apps: apps)
            if servers.isEmpty { atexit { SharedMockStack.stopAll() } }
            servers[key] = started
            return started
        }
    }

    /// Stops every shared server (at exit).
    static func stopAll() {
        let all = servers.withLock { servers in
            defer { servers.removeAll() }
            return Array(servers.values)
        }
        for server in all { server.stop() }
    }
}

/// Runs `body` with a fresh session of the shared mockstack and ends the session afterwards:
/// the default way for a test to get a server of its own state. The first call in a test
/// process starts the server; the others cost one control call (ending the session).
///
/// ```swift
/// @Test func createsAMessage() async throws {
///     try await withMockStackSession(apps: ["feathers"]) { session in
///         let client = FeathersClient(baseURL: try session.url(for: "feathers"))
///         // …
///         try await session.expectRequests(method: "POST", path: "/feathers/messages", count: 1)
///     }
/// }
/// ```
/// - Parameters:
///   - mode: by default attached to `MOCKSTACK_URL` when it is set, else spawned.
///   - apps: the apps the test uses: the shared server loads only those (all when nil).
public func withMockStackSession<T>(_ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil,
                                    _ body: (MockStackSession) async throws -> T) async throws -> T {
    let session = try SharedMockStack.server(mode, apps: apps).session()
    do {
        let result = try await body(session)
        try? await session.end()
        return result
    } catch {
        try? await session.end()
        throw error
    }
}

#if canImport(XCTest)
extension XCTestCase {
    /// A fresh session of the shared mockstack for this test, ended at teardown.
    ///
    /// ```swift
    /// override func setUpWithError() throws {
    ///     session = try startMockStackSession(apps: ["test"])
    /// }
    /// ```
    /// - Parameter apps: the apps the test uses: the shared server loads only those (all when nil).
    public func startMockStackSession(_ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil) throws -> MockStackSession {
        let session = try SharedMockStack.server(mode, apps: apps).session()
        addTeardownBlock { session.endWaiting() }
        return session
    }
}
#endif

extension MockStackSession {
    /// ``end()`` for callers that cannot await (XCTest's synchronous teardown).
    func endWaiting() {
        var request = ControlSession.request(serverURL.appendingPathComponent("__mockstack/sessions/" + id), token: adminToken)
        request.httpMethod = "DELETE"
        let done = DispatchSemaphore(value: 0)
        ControlSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        _ = done.wait(timeout: .now() + 5)
    }
}
