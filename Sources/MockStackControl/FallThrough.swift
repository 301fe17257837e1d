package import MockStackCore

/// Where a request no app or stub answers goes instead of its 404 (`serve --proxy-unmatched`,
/// and `record`, whose root stands for its target): another server, asked without holding the
/// loop. ``forward`` calls its completion once, from any thread, with the answer to send —
/// the upstream's, or a 502 saying why there is none.
package struct FallThrough: Sendable {
    /// Forwards to a stub's `proxyBaseUrl` with the same rules (``StubProxying``): what the
    /// façade makes for a base URL, at the stub's first match of a request.
    package typealias Maker = @Sendable (StubProxying) -> FallThrough

    /// How long the pipeline keeps the request open for the answer, at most; the forwarder's
    /// own timeout should end it first.
    package let timeoutMilliseconds: Int
    package let forward: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    package init(
        timeoutMilliseconds: Int,
        forward: @escaping @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void
    ) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.forward = forward
    }
}

/// A stub that answers by forwarding (`"proxyBaseUrl"`): where to, and the path prefix taken off
/// the request first.
package struct StubProxying: Sendable, Equatable {
    package var baseURL: String
    package var prefixToRemove: String?

    package init(baseURL: String, prefixToRemove: String?) {
        self.baseURL = baseURL
        self.prefixToRemove = prefixToRemove
    }

    /// `request` as it goes up: its target without the prefix, when it starts with it.
    package func forwarded(_ request: HTTPRequest) -> HTTPRequest {
        guard let prefix = prefixToRemove, request.path.hasPrefix(prefix) else { return request }
        let rest = String(request.path.dropFirst(prefix.count))
        let path = rest.isEmpty || rest.hasPrefix("/") ? rest : "/" + rest
        var forwarded = request
        forwarded.path = path.isEmpty ? "/" : path
        forwarded.target = forwarded.path + (request.query.map { "?" + $0 } ?? "")
        return forwarded
    }
}
