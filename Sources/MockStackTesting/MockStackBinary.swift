public import Foundation
import MockStack

/// Finds the `mockstack` executable for spawned mode.
public enum MockStackBinary {
    /// `MOCKSTACK_BIN`, else a `mockstack` next to the running test binary (SwiftPM puts
    /// products and test bundles in one build folder), else the first on `PATH`.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fileManager = FileManager.default
        if let explicit = environment["MOCKSTACK_BIN"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        var candidates: [URL] = []
        if let executable = FixturesLocator.currentExecutable() {
            var folder = executable.deletingLastPathComponent()
            // Inside a macOS .xctest bundle the executable sits three levels down.
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("mockstack"))
                folder = folder.deletingLastPathComponent()
            }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(directory)).appendingPathComponent("mockstack"))
        }
        return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
    }
}
