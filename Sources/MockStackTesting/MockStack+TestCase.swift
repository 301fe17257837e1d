public import Foundation
import MockStack
#if canImport(XCTest)
public import XCTest
#endif

/// How a test runs mockstack.
public enum MockStackMode: Sendable {
    /// A `mockstack serve` child process (the same binary users run).
    case spawned(arguments: [String] = [])
    /// The server inside the test process.
    case inProcess
    /// A server already running at this URL: a CI service container, `docker run`, `make serve`.
    /// Stopping the handle leaves it running.
    case attached(URL)

    /// `.attached(MOCKSTACK_URL)` when that variable is set — CI runs mockstack as a service
    /// container and says where — else `.spawned()`: the same tests run both ways.
    public static var fromEnvironment: MockStackMode { from(environment: ProcessInfo.processInfo.environment) }

    /// ``fromEnvironment`` for a given environment.
    public static func from(environment: [String: String]) -> MockStackMode {
        let url = environment["MOCKSTACK_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
        return url.map { .attached($0) } ?? .spawned()
    }
}

/// Starts a mockstack for the duration of `body` and stops it afterwards, whether `body`
/// returns or throws. Works under XCTest and Swift Testing.
///
/// ```swift
/// try await withMockStack { mock in
///     let client = JsonServiceClient(baseUrl: try mock.url(for: "test").absoluteString)
/// }
/// ```
public func withMockStack<T>(
    _ mode: MockStackMode = .spawned(),
    fixtures: URL? = nil,
    _ body: (any MockStackHandle) async throws -> T
) async throws -> T {
    let handle = try startMockStack(mode, fixtures: fixtures)
    do {
        let result = try await body(handle)
        handle.stop()
        return result
    } catch {
        handle.stop()
        throw error
    }
}

/// Starts a mockstack (or attaches to a running one); the caller stops it. `fixtures` applies
/// to the servers it starts.
public func startMockStack(_ mode: MockStackMode = .spawned(), fixtures: URL? = nil) throws -> any MockStackHandle {
    switch mode {
    case .spawned(let arguments):
        return try MockStackProcess.launch(arguments: arguments, fixtures: fixtures)
    case .inProcess:
        return try InProcessMockStack(configuration: MockStackConfiguration(fixtures: fixtures.map { [$0] } ?? []))
    case .attached(let url):
        return try AttachedMockStack.attach(to: url)
    }
}

#if canImport(XCTest)
extension XCTestCase {
    /// Starts a mockstack and registers its teardown, which runs even when the test fails.
    ///
    /// ```swift
    /// override func setUpWithError() throws {
    ///     mock = try startMockStack()
    /// }
    /// ```
    public func startMockStack(_ mode: MockStackMode = .spawned(), fixtures: URL? = nil) throws -> any MockStackHandle {
        let handle = try MockStackTesting.startMockStack(mode, fixtures: fixtures)
        addTeardownBlock { handle.stop() }
        return handle
    }
}
#endif
