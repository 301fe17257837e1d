public import MockStack
public import MockStackTesting

/// A mockstack running inside the test process on a free port: no binary needed, faster to
/// start, and the same server the CLI runs.
public final class InProcessMockStack: MockStackHandle {
    public let ready: ReadyEvent
    public let server: MockStackServer

    /// Loads the fixtures and starts listening on a free loopback port.
    /// - Parameter configuration: adjust fixtures, threads or limits; its port is used as given
    ///   (0 by default).
    public init(configuration: MockStackConfiguration = MockStackConfiguration()) throws {
        server = try MockStackServer(configuration: configuration)
        ready = try server.start()
    }

    /// The token the server's control plane wants, if any; every control call sends it.
    public var adminToken: String? {
        if case .token(let token) = server.adminAccess { token } else { nil }
    }

    /// Stops gracefully and waits. Idempotent.
    public func stop() { server.shutdown() }

    deinit { server.shutdown() }
}
