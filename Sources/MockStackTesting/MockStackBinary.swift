public import Foundation

/// Finds the `mockstack` executable for spawned mode.
public enum MockStackBinary {
    /// `MOCKSTACK_BIN`, else a `mockstack` next to the running test binary (SwiftPM puts
    /// products and test bundles in one build folder), else the first on `PATH`.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        try? find(environment: environment)
    }

    /// ``locate(environment:)``, or why nothing was found, saying what to add to Package.swift.
    /// - Parameter executable: the running test binary (its folder is searched).
    public static func find(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = RunningExecutable.url()
    ) throws(MockStackLaunchError) -> URL {
        let fileManager = FileManager.default
        if let explicit = environment["MOCKSTACK_BIN"], !explicit.isEmpty {
            guard fileManager.isExecutableFile(atPath: explicit) else {
                throw MockStackLaunchError(
                    """
                    MOCKSTACK_BIN is \(explicit), which is not an executable file: point it at a mockstack binary, or \
                    unset it to use the one your test build makes
                    """
                )
            }
            return URL(fileURLWithPath: explicit)
        }
        var buildFolders: [URL] = []
        if var folder = executable?.deletingLastPathComponent() {
            // Inside a macOS .xctest bundle the executable sits three levels down.
            for _ in 0..<4 {
                buildFolders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        let path = (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        if let found = (buildFolders + path).map({ $0.appendingPathComponent("mockstack") })
            .first(where: { fileManager.isExecutableFile(atPath: $0.path) })
        {
            return found
        }
        throw MockStackLaunchError(notFound(buildFolder: buildFolders.first))
    }

    /// What to do when there is no binary to spawn: the line the test target is missing, and
    /// the other ways to get a server.
    static func notFound(buildFolder: URL?) -> String {
        """
        cannot find the mockstack executable to spawn\(buildFolder.map { " (not in the test build's folder \($0.path), MOCKSTACK_BIN or PATH)" } ?? ""). \
        Add it to your test target's dependencies in Package.swift, so that `swift build --build-tests` builds it beside the tests:
            .testTarget(name: "…Tests", dependencies: [
                .product(name: "MockStackTesting", package: "mockstack"),
                .product(name: "mockstack", package: "mockstack"),   // ← this line
            ])
        Or set MOCKSTACK_BIN to a mockstack binary, put one on PATH (`make install` in a mockstack checkout), \
        or set MOCKSTACK_URL to a running server (a container) to attach to it instead.
        """
    }
}
