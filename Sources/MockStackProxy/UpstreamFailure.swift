public import MockStackCore

/// Why an upstream gave no answer to forward, as the proxy's client is told: a `502` in
/// mockstack's own format (`{"status":502,"error":"Bad Gateway","message":…}`), or a `400` for
/// a request that is not sent at all (a path with dot segments).
public struct UpstreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL that was asked.
    public let url: String
    /// What went wrong, in a few words (`refused the connection`, `did not answer within 30 s`).
    public let reason: String

    /// The status the client gets: 502, or 400 for a request the proxy refuses to send.
    public let status: Int

    public init(url: String, reason: String, status: Int = 502) {
        self.url = url
        self.reason = reason
        self.status = status
    }

    public var description: String { "the upstream \(url) \(reason)" }

    /// The answer the proxy's client gets instead, in mockstack's own format.
    public var response: HTTPResponse {
        PlainError.response(status, "\(HTTPStatus.phrase(for: status)): \(description)")
    }
}
