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
}

/// Starts a mockstack for the duration of `body` and stops it afterwards, whether `body`
/// returns or throws. Works under XCTest and Swift Testing.
///
/// ```swift
/// try await withMockStack { mock in
///     let client = JsonServiceClient(baseUrl: mock.url(for: "test").absoluteString)
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

/// Starts a mockstack; the caller stops it.
public func startMockStack(_ mode: MockStackMode = .spawned(), fixtures: URL? = nil) throws -> any MockStackHandle {
    switch mode {
    case .spawned(let arguments):
        return try MockStackProcess.launch(arguments: arguments, fixtures: fixtures)
    case .inProcess:
        return try InProcessMockStack(configuration: MockStackConfiguration(fixtures: fixtures))
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
