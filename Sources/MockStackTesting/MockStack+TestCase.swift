public import Foundation

#if canImport(XCTest)
public import XCTest
#endif

/// Starts a mockstack of its own for the duration of `body` and stops it afterwards, whether
/// `body` returns or throws. Works under XCTest and Swift Testing. (A session of the shared
/// server, ``withMockStackSession(_:apps:_:)``, costs a test far less.)
///
/// ```swift
/// try await withMockStack(apps: ["test"]) { mock in
///     let client = JsonServiceClient(baseUrl: try mock.url(for: "test").absoluteString)
/// }
/// ```
/// - Parameter apps: load only these apps (faster to start); all when nil.
public func withMockStack<T>(
    _ mode: MockStackMode = .fromEnvironment,
    apps: [String]? = nil,
    fixtures: [URL] = [],
    _ body: (any MockStackHandle) async throws -> T
) async throws -> T {
    let handle = try startMockStack(mode, apps: apps, fixtures: fixtures)
    do {
        let result = try await body(handle)
        handle.stop()
        return result
    } catch {
        handle.stop()
        throw error
    }
}

/// Starts a mockstack of its own (or attaches to a running one); the caller stops it.
/// `apps` and `fixtures` apply to the servers it starts; an attached one must serve `apps`.
public func startMockStack(
    _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil, fixtures: [URL] = []
) throws -> any MockStackHandle {
    try mode.start(apps: apps, fixtures: fixtures)
}

#if canImport(XCTest)
extension XCTestCase {
    /// Starts a mockstack of its own and registers its teardown, which runs even when the test
    /// fails.
    ///
    /// ```swift
    /// override func setUpWithError() throws {
    ///     mock = try startMockStack(apps: ["test"])
    /// }
    /// ```
    public func startMockStack(
        _ mode: MockStackMode = .fromEnvironment, apps: [String]? = nil, fixtures: [URL] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> any MockStackHandle {
        let handle = try failingOnce(file: file, line: line) { try mode.start(apps: apps, fixtures: fixtures) }
        addTeardownBlock { handle.stop() }
        return handle
    }
}
#endif
