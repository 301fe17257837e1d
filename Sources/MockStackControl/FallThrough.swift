package import MockStackCore

/// Where a request no app or stub answers goes instead of its 404 (`serve --proxy-unmatched`,
/// and `record`, whose root stands for its target): another server, asked without holding the
/// loop. ``forward`` calls its completion once, from any thread, with the answer to send —
/// the upstream's, or a 502 saying why there is none.
package struct FallThrough: Sendable {
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
