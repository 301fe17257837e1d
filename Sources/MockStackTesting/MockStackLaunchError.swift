/// Why a mockstack could not be started.
public struct MockStackLaunchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the last of the child's output when it printed any.
    public var message: String
    /// An error that says `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
