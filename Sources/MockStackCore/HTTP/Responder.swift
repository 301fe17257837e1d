/// Anything that turns a request into a response: an app, the control plane, the root router.
///
/// Responders are called synchronously on an event-loop thread, possibly from several loops at
/// once, so they must be thread-safe and must not block.
public protocol Responder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// A responder made from a closure; handy in tests.
public struct ClosureResponder: Responder {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse { body(request) }
}
