public import MockStackCore

/// Why an upstream gave no answer to forward, as the proxy's client is told: a `502` in
/// mockstack's own format (`{"status":502,"error":"Bad Gateway","message":…}`).
public struct UpstreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL that was asked.
    public let url: String
    /// What went wrong, in a few words (`refused the connection`, `did not answer within 30 s`).
    public let reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "the upstream \(url) \(reason)" }

    /// The answer the proxy's client gets instead.
    public var response: HTTPResponse {
        PlainError.response(502, "Bad Gateway: \(description)")
    }
}
