/// A connection fault a stub answers with, by the name `X-MockStack-Fault` and `answer.fault`
/// use. The server knows which names it can act on and refuses others with a 400 naming them.
public struct FaultName: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as the wire spells it (`malformed-chunk`).
    public var rawValue: String

    /// A fault by its wire name, known to the server or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A fault by its wire name: `"reset"`.
    public init(stringLiteral value: String) { rawValue = value }

    /// A TCP RST instead of an answer.
    public static let reset = FaultName(rawValue: "reset")
    /// The connection closed without a byte.
    public static let empty = FaultName(rawValue: "empty")
    /// The head with the full `Content-Length`, half the body, close.
    public static let truncate = FaultName(rawValue: "truncate")
    /// Half the body as a good chunk, then a size line that is not hexadecimal, close.
    public static let malformedChunk = FaultName(rawValue: "malformed-chunk")
    /// No answer: the connection held until the client gives up.
    public static let hang = FaultName(rawValue: "hang")
    /// Bytes that are not HTTP, then close.
    public static let randomThenClose = FaultName(rawValue: "random-then-close")

    /// The wire name.
    public var description: String { rawValue }
}
