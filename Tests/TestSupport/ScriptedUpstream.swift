public import MockStackCore
public import MockStackTransport
import Synchronization

/// An upstream on the transport's own server (port 0, loopback) answering with `respond`, every
/// request it took kept in order: for the upstream client's tests and the proxy's, with answers
/// no mockstack app gives (a 101, a `Connection` naming fields, a body without a type).
public final class ScriptedUpstream: Sendable {
    public let server: HTTPServer
    public let port: Int
    private let seen: Seen

    /// The requests taken, shared with the responder.
    private final class Seen: Sendable {
        let requests = Mutex<[HTTPRequest]>([])
    }

    public init(respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse) async throws {
        let seen = Seen()
        self.seen = seen
        let server = HTTPServer(configuration: TransportConfiguration(threads: 1), listeners: [
            ListenerSpec(label: "main", port: 0, responder: ClosureResponder { request in
                seen.requests.withLock { $0.append(request) }
                return respond(request)
            }),
        ])
        self.server = server
        port = try await offThePool { try server.start() }[0].port
    }

    /// The requests taken so far, in order.
    public var requests: [HTTPRequest] { seen.requests.withLock { $0 } }
    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    public func stop() async throws { try await offThePool { self.server.shutdown() } }
}
