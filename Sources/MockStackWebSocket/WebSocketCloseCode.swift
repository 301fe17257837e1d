/// A close frame's status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normal = WebSocketCloseCode(1000)
    /// 1001: the server is going away (stopping), or the client leaves.
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: a frame broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: reported when a close frame carried no code; never sent.
    public static let noStatus = WebSocketCloseCode(1005)
    /// 1006: reported when the connection ended without a close frame; never sent.
    public static let abnormal = WebSocketCloseCode(1006)
    /// 1007: a text message that is not UTF-8 (or a close reason that is not).
    public static let invalidPayload = WebSocketCloseCode(1007)
    /// 1008: a message that breaks the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a message (or frame) over the size limit.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1011: the server failed to fulfil a request.
    public static let internalError = WebSocketCloseCode(1011)

    /// Whether a close frame may carry this code: the defined codes 1000–1003 and 1007–1014
    /// and the registered and private ranges 3000–4999. 1004–1006, 1015 and anything else
    /// are a protocol error.
    public var mayBeSent: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String { String(rawValue) }
}

/// Why the reader gave up on a connection: the close code to send and a short reason.
public struct WebSocketFailure: Error, Equatable, Sendable {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
