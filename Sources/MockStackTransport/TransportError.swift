/// A failure to start or run the transport, with the C call and errno behind it.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What failed, in words a user can act on ("cannot listen on 127.0.0.1:8080: Address already in use").
    public var message: String
    /// The C call that failed, when one did.
    public var call: String?
    public var errno: Int32?

    public init(_ message: String, call: String? = nil, errno: Int32? = nil) {
        self.message = message
        self.call = call
        self.errno = errno
    }

    public var description: String { message }
}
