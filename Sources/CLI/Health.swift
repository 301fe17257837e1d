import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack health --url URL`: exit 0 when the server answers its health check with 200.
struct Health: Subcommand {
    static let name = "health"
    static let abstract = "Probe a running server (for Docker HEALTHCHECK); exit 0 when healthy."
    static let discussion = "A URL without a path probes /__mockstack/health."

    static let arguments: CommandArguments<Self>? = nil

    var url = ""
    var timeout = 2_000

    static let options: [CommandOption<Self>] = [
        .value("url", \.url, required: true, help: "The server's URL, e.g. http://127.0.0.1:8080."),
        .value("timeout", \.timeout, help: "Milliseconds to wait for an answer."),
    ]

    func run() throws {
        guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host else {
            printError("mockstack health: '\(url)' is not an http:// URL")
            throw ExitStatus(2)
        }
        let path = parsed.path.isEmpty || parsed.path == "/" ? "/__mockstack/health" : parsed.path
        switch HTTPProbe.get(host: host, port: parsed.port ?? 80, path: path, timeoutMilliseconds: timeout) {
        case .success(200):
            print("healthy")
        case .success(let status):
            printError("unhealthy: \(path) answered \(status)")
            throw ExitStatus(1)
        case .failure(let error):
            printError("unhealthy: \(error.message)")
            throw ExitStatus(1)
        }
    }
}
