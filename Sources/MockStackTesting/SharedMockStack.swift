import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(XCTest)
public import XCTest
#endif

/// One mockstack per test process for each mode and set of apps, started on first use and
/// stopped at exit; each test takes a fresh session of it, so parallel tests share the server
/// without sharing state. A spawned one also stops if the test process is killed
/// (``MockStackProcess``).
public enum SharedMockStack {
    private static let starts = Mutex<[String: SharedStart]>([:])

    /// The shared server for `mode` that loads `apps` (all when nil), started now if it is not
    /// running yet. Servers are keyed by both: tests naming the same apps share one. Blocks the
    /// calling thread while it starts (XCTest's synchronous setUp).
    public static func server(
        _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil
    ) throws -> any MockStackHandle {
        try start(mode, apps: apps).wait()
    }

    /// ``server(_:apps:)`` for async callers: while the server starts, on a thread of its own,
    /// the tests waiting for it suspend instead of holding Swift's cooperative threads.
    public static func server(
        _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil
    ) async throws -> any MockStackHandle {
        try await start(mode, apps: apps).value()
    }

    /// The start of the server for `mode` and `apps`: begun by the first caller, shared by all.
    /// A start that fails is forgotten, so the next caller tries again.
    private static func start(_ mode: MockStackMode, apps: [String]?) -> SharedStart {
        let apps = apps.map { Array(Set($0)).sorted() }
        let key = mode.description + " apps=" + (apps?.joined(separator: ",") ?? "*")
        let (entry, isNew) = starts.withLock { starts -> (SharedStart, Bool) in
            if let running = starts[key] { return (running, false) }
            if starts.isEmpty { atexit { SharedMockStack.stopAll() } }
            let entry = SharedStart()
            starts[key] = entry
            return (entry, true)
        }
        if isNew {
            Thread.detachNewThread {
                do {
                    entry.finish(.success(try mode.start(apps: apps)))
                } catch {
                    starts.withLock { _ = $0.removeValue(forKey: key) }
                    entry.finish(.failure(error))
                }
            }
        }
        return entry
    }

    /// Stops every shared server (at exit).
    static func stopAll() {
        let all = starts.withLock { starts in
            defer { starts.removeAll() }
            return Array(starts.values)
        }
        for entry in all { entry.started?.stop() }
    }
}

/// One shared server's start, which any number of callers wait for, blocking or suspended.
final class SharedStart: @unchecked Sendable {
    // @unchecked: `outcome` and `waiters` are only touched under `condition`.
    private let condition = NSCondition()
    private var outcome: Result<any MockStackHandle, any Error>?
    private var waiters: [CheckedContinuation<any MockStackHandle, any Error>] = []

    /// Hands the outcome to every caller, waiting or to come.
    func finish(_ result: Result<any MockStackHandle, any Error>) {
        let waiting = condition.withLock {
            outcome = result
            condition.broadcast()
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume(with: result) }
    }

    /// The server, once started; blocks the calling thread until then.
    func wait() throws -> any MockStackHandle {
        try condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }.get()
    }

    /// The server, once started; suspends the caller until then.
    func value() async throws -> any MockStackHandle {
        try await withCheckedThrowingContinuation { continuation in
            let known = condition.withLock { () -> Result<any MockStackHandle, any Error>? in
                if outcome == nil { waiters.append(continuation) }
                return outcome
            }
            if let known { continuation.resume(with: known) }
        }
    }

    /// The server, if it started.
    var started: (any MockStackHandle)? {
        condition.withLock { try? outcome?.get() }
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
public func withMockStackSession<T>(
    _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil,
    _ body: (MockStackSession) async throws -> T
) async throws -> T {
    let session = try await SharedMockStack.server(mode, apps: apps).session()
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
    public func startMockStackSession(
        _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> MockStackSession {
        let server = try failingOnce(file: file, line: line) { try SharedMockStack.server(mode, apps: apps) }
        let session = server.session()
        addTeardownBlock { session.endWaiting() }
        return session
    }

    /// `start()`, with a ``MockStackLaunchError`` reported once: XCTest prints an error thrown
    /// from `setUp` twice (as the failure, and again as why the test was skipped), and the
    /// launch errors are long. The failure carries the whole explanation at the caller's line;
    /// what is thrown only points at it.
    func failingOnce<T>(file: StaticString, line: UInt, _ start: () throws -> T) throws -> T {
        do {
            return try start()
        } catch let error as MockStackLaunchError {
            XCTFail(error.message, file: file, line: line)
            throw MockStackLaunchError("mockstack did not start (the failure above says why)")
        }
    }
}
#endif

extension MockStackSession {
    /// ``end()`` for callers that cannot await (XCTest's synchronous teardown).
    func endWaiting() {
        invalidateURLSession()
        var request = ControlSession.request(
            serverURL.appendingPathComponent("__mockstack/sessions/" + id), token: adminToken)
        request.httpMethod = "DELETE"
        let done = DispatchSemaphore(value: 0)
        ControlSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        _ = done.wait(timeout: .now() + 5)
    }
}
