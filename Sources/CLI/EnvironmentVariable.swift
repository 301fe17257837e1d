#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One environment variable's value, read with `getenv`. `ProcessInfo.processInfo.environment`
/// builds a dictionary of the whole environment on every call, and `serve` asks for a handful
/// of variables on its way to the ready line.
enum EnvironmentVariable {
    /// The value of `name`, nil when it is not set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The control plane's token: the one given on the command line, else a non-empty
    /// `MOCKSTACK_ADMIN_TOKEN`.
    static func adminToken(given: String?) -> String? {
        given ?? value("MOCKSTACK_ADMIN_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The values of those of `names` that are set, for APIs that take an environment.
    static func values(_ names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = value(name) { found[name] = value }
        }
        return found
    }
}
