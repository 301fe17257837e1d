/// What the parser learned from a request's head: its request line, its fields, and what they
/// mean for the connection.
public struct HTTP1Head: Sendable, Equatable {
    /// The method; a token the parser does not know is ``HTTPMethod/unknown`` (the app answers 405).
    public var method: HTTPMethod
    /// The request target exactly as sent (origin-form `/p?q`, absolute-form `http://h/p`,
    /// `*` for OPTIONS, or `host:port` for CONNECT).
    public var target: String
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTP1Version
    /// Every field in the order sent, duplicates kept; values decoded as UTF-8, an invalid
    /// sequence replaced by U+FFFD.
    public var headers: HTTPHeaders
    /// How the body is delimited.
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one: for HTTP/1.1 unless
    /// `Connection` lists `close`; for HTTP/1.0 only when it lists `keep-alive` (and not `close`).
    public var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body (`Expect:
    /// 100-continue`, any case). Always false for HTTP/1.0, which has no 1xx answers (RFC 9110 §10.1.1).
    public var expectsContinue: Bool
    /// The `Upgrade` field's value when `Connection` lists `upgrade` (several `Upgrade` fields
    /// joined with ", "), for a later WebSocket layer; else nil.
    public var upgrade: String?

    /// A head with the given parts.
    public init(method: HTTPMethod, target: String, version: HTTP1Version, headers: HTTPHeaders, framing: BodyFraming,
                keepAlive: Bool, expectsContinue: Bool, upgrade: String?) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
        self.upgrade = upgrade
    }
}
