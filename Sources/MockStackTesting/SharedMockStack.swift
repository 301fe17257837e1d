import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import Synchronization
#if canImport(XCTest)
public import XCTest
#endif

/// One mockstack per test process (and mode), started on first use and stopped at exit; each
/// test takes a fresh session of it, so parallel tests share the server without sharing state.
public enum SharedMockStack {
    private static let servers = Mutex<[String: any MockStackHandle]>([:])

    /// The shared server for `mode`, started now if it is not running yet.
    public static func server(_ mode: MockStackMode = .inProcess) throws -> any MockStackHandle {
        let key = switch mode {
        case .inProcess: "in-process"
        case .spawned(let arguments): "spawned " + arguments.joined(separator: " ")
        case .attached(let url): "attached " + url.absoluteString
        }
        return try servers.withLock { servers in
            if let running = servers[key] { return running }
            let started = try startMockStack(mode)
            if servers.isEmpty { atexit { SharedMockStack.stopAll() } }
            servers[key] = started
            return started
        }
    }

    /// Stops every shared server (at exit; a spawned child must not outlive the tests).
    static func stopAll() {
        let all = servers.withLock { servers in
            defer { servers.removeAll() }
            return Array(servers.values)
        }
        for server in all { server.stop() }
    }
}

/// Runs `body` with a fresh session of the shared mockstack and ends the session afterwards:
/// the default way for a test to get a server of its own state.
///
/// ```swift
/// @Test func createsAMessage() async throws {
///     try await withMockStackSession { session in
///         let client = FeathersClient(baseURL: try session.url(for: "feathers"))
///         // …
///         try await session.expectRequests(method: "POST", path: "/feathers/messages", count: 1)
///     }
/// }
/// ```
public func withMockStackSession<T>(_ mode: MockStackMode = .inProcess, _ body: (MockStackSession) async throws -> T) async throws -> T {
    let session = try SharedMockStack.server(mode).session()
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
    ///     session = try startMockStackSession()
    /// }
    /// ```
    public func startMockStackSession(_ mode: MockStackMode = .inProcess) throws -> MockStackSession {
        let session = try SharedMockStack.server(mode).session()
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
