#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The executable this process runs: where the server looks for the fixtures shipped beside
/// it, and where a test helper looks for the `mockstack` built beside the tests.
public enum RunningExecutable {
    /// Its file, symlinks resolved; nil where the platform does not say.
    public static func url() -> URL? {
        #if os(Linux)
        let link = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if link.path != "/proc/self/exe" { return link }
        #endif
        #if canImport(FoundationEssentials)
        return nil
        #else
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
        #endif
    }
}
