public import MockStackJSON

/// Engine.IO's refusals of a request, each with its fixed code and message, answered as
/// `{"code":N,"message":"…"}`. docs/feathers-realtime.md#errors.
public enum EngineIORequestError: Int, Error, Sendable, Equatable {
    /// `transport` missing, or neither `polling` nor `websocket`.
    case unknownTransport = 0
    /// A `sid` no open session has.
    case unknownSession = 1
    /// A handshake (no `sid`) that is not a GET.
    case badHandshakeMethod = 2
    /// A request the session's state does not allow (another transport, overlapping polls, …).
    case badRequest = 3
    /// Refused by the server's own check of the request.
    case forbidden = 4
    /// An `EIO` revision the server does not serve.
    case unsupportedProtocolVersion = 5

    /// The message engine.io sends with the code.
    public var message: String {
        switch self {
        case .unknownTransport: "Transport unknown"
        case .unknownSession: "Session ID unknown"
        case .badHandshakeMethod: "Bad handshake method"
        case .badRequest: "Bad request"
        case .forbidden: "Forbidden"
        case .unsupportedProtocolVersion: "Unsupported protocol version"
        }
    }

    /// The HTTP status of the answer: 403 for ``forbidden``, 400 otherwise.
    public var status: Int { self == .forbidden ? 403 : 400 }

    /// The answer's body.
    public var body: JSONValue { body(message: message) }

    /// The answer's body with a message of the server's own, as engine.io's `allowRequest`
    /// may give one with ``forbidden``.
    public func body(message: String) -> JSONValue {
        .object(["code": .number(JSONNumber(rawValue)), "message": .string(message)])
    }
}
