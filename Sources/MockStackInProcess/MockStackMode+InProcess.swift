import MockStack
public import MockStackTesting

extension MockStackMode {
    /// The server inside the test process, on a free loopback port: no binary to spawn, but the
    /// test build compiles the whole server.
    public static var inProcess: MockStackMode {
        MockStackMode("in-process") { apps, fixtures in
            try InProcessMockStack(configuration: MockStackConfiguration(fixtures: fixtures, apps: apps))
        }
    }
}
