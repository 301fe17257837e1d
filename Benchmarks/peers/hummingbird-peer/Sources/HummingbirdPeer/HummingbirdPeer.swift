import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// One file to serve: where it lives on disk and the URL path it answers on.
struct FileRoute {
    var filePath: String
    var urlPath: String
}

struct Options {
    var port = 0
    var threads = 1
    var files: [FileRoute] = []
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("hummingbird-peer: \(message)\n".utf8))
    exit(2)
}

func parseOptions(_ args: [String]) -> Options {
    var options = Options()
    var index = 1
    func value(for flag: String) -> String {
        index += 1
        guard index < args.count else { fail("missing value for \(flag)") }
        return args[index]
    }
    while index < args.count {
        let flag = args[index]
        switch flag {
        case "--port":
            guard let port = Int(value(for: flag)), (0...65535).contains(port) else { fail("bad --port") }
            options.port = port
        case "--threads":
            guard let threads = Int(value(for: flag)), threads >= 1 else { fail("bad --threads") }
            options.threads = threads
        case "--file":
            // Split on the last '=' so file paths may contain '='; URL paths may not.
            let spec = value(for: flag)
            guard let eq = spec.lastIndex(of: "="),
                  eq != spec.startIndex,
                  spec[spec.index(after: eq)...].hasPrefix("/")
            else { fail("--file expects PATH=/url/path, got \(spec)") }
            options.files.append(FileRoute(filePath: String(spec[..<eq]), urlPath: String(spec[spec.index(after: eq)...])))
        default:
            fail("unknown argument \(flag)")
        }
        index += 1
    }
    if options.files.isEmpty { fail("at least one --file PATH=/url/path is required") }
    return options
}

@main
struct HummingbirdPeer {
    static func main() async throws {
        let options = parseOptions(CommandLine.arguments)

        let router = Router()
        for route in options.files {
            guard let data = FileManager.default.contents(atPath: route.filePath) else {
                fail("cannot read \(route.filePath)")
            }
            let contentType = route.filePath.hasSuffix(".swift")
                ? "text/plain; charset=utf-8"
                : "application/json; charset=utf-8"
            // Build the whole response once; each request just returns this value.
            let response = Response(
                status: .ok,
                headers: [.contentType: contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
            )
            router.get(RouterPath(route.urlPath)) { _, _ in response }
        }

        var logger = Logger(label: "hummingbird-peer")
        logger.logLevel = .warning

        let group = MultiThreadedEventLoopGroup(numberOfThreads: options.threads)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? -1
                print("{\"event\":\"ready\",\"port\":\(port)}")
                fflush(nil)
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger
        )
        try await app.runService()
        try await group.shutdownGracefully()
    }
}
