public import Foundation

/// How a test gets its mockstack: spawned, attached, or anything that makes a
/// ``MockStackHandle`` (the `MockStackInProcess` product adds `.inProcess`).
public struct MockStackMode: Sendable, CustomStringConvertible {
    /// Names the servers this mode starts: shared servers are keyed by it and by their apps.
    public let description: String
    private let starter: @Sendable (_ apps: [String]?, _ fixtures: [URL]) throws -> any MockStackHandle

    /// A mode of your own.
    /// - Parameters:
    ///   - description: what it starts, distinct for servers that differ (`in-process`).
    ///   - start: makes a ready server loading only `apps` (all when nil) from `fixtures`
    ///     (the shipped ones when nil).
    public init(
        _ description: String,
        start: @escaping @Sendable (_ apps: [String]?, _ fixtures: [URL]) throws -> any MockStackHandle
    ) {
        self.description = description
        starter = start
    }

    /// Starts (or attaches to) a server: the caller stops it.
    public func start(apps: [String]? = nil, fixtures: [URL] = []) throws -> any MockStackHandle {
        try starter(apps, fixtures)
    }

    /// A `mockstack serve` child process (the same binary users run), with extra `serve`
    /// arguments; it stops when the test process exits, even killed (``MockStackProcess``).
    /// On macOS and Linux: elsewhere (an iOS simulator or device) starting it throws, saying to
    /// attach to a server on the Mac with `MOCKSTACK_URL`.
    public static func spawned(arguments: [String] = []) -> MockStackMode {
        MockStackMode(arguments.isEmpty ? "spawned" : "spawned " + arguments.joined(separator: " ")) { apps, fixtures in
            #if os(macOS) || os(Linux)
            try MockStackProcess.launch(arguments: arguments, apps: apps, fixtures: fixtures)
            #else
            throw MockStackLaunchError(
                """
                mockstack cannot be spawned here: this platform starts no processes. Start it on the Mac \
                (mockstack serve) and set MOCKSTACK_URL=http://127.0.0.1:8080 in the test's environment \
                (the scheme's Test action), so that the tests attach to it
                """)
            #endif
        }
    }

    /// A server already running at this URL: a CI service container, `docker run`, `make serve`.
    /// Stopping the handle leaves it running. Given apps, it must serve them.
    public static func attached(_ url: URL) -> MockStackMode {
        MockStackMode("attached " + url.absoluteString) { apps, _ in
            try AttachedMockStack.attach(to: url, apps: apps)
        }
    }

    /// `.attached(MOCKSTACK_URL)` when that variable is set — CI runs mockstack as a service
    /// container and says where — else `.spawned()`: the same tests run both ways.
    public static var fromEnvironment: MockStackMode { from(environment: ProcessInfo.processInfo.environment) }

    /// ``fromEnvironment`` for a given environment.
    public static func from(environment: [String: String]) -> MockStackMode {
        let url = environment["MOCKSTACK_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
        return url.map { .attached($0) } ?? .spawned()
    }
}
