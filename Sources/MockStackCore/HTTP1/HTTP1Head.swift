/// What a request's head means for its message and its connection, beside the request itself
/// (its method, target and fields are in the ``HTTPRequest`` the parser hands over with it).
public struct HTTP1Head: Sendable, Equatable {
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTP1Version
    /// How the body is delimited.
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one: for HTTP/1.1 unless
    /// `Connection` lists `close`; for HTTP/1.0 only when it lists `keep-alive` (and not `close`).
    public var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body (`Expect:
    /// 100-continue`, any case). Always false for HTTP/1.0, which has no 1xx answers (RFC 9110 §10.1.1).
    public var expectsContinue: Bool
    /// The `Upgrade` field's value when `Connection` lists `upgrade` (several `Upgrade` fields
    /// joined with ", "), for the WebSocket layer; else nil.
    public var upgrade: String?

    /// A head with the given parts.
    public init(version: HTTP1Version, framing: BodyFraming, keepAlive: Bool, expectsContinue: Bool, upgrade: String?) {
        self.version = version
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
        self.upgrade = upgrade
    }
}
