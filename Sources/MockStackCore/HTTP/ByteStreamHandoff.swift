/// How a connection is handed over once its head is out, to go on as a byte stream (an
/// upgrade's `101`, a streamed body's `200`): the handler to make, one per connection, and how
/// much output its client may leave untaken, past which the connection is dropped (a client
/// that never reads cannot make the server hold its output without end).
///
/// Equal only to itself (by identity), so that the deliveries carrying it stay `Equatable`.
public struct ByteStreamHandoff: Sendable, Equatable {
    private let box: Box

    private final class Box: Sendable {
        let makeHandler: @Sendable () -> any ByteStreamHandler
        let unsentOutputLimit: Int

        init(makeHandler: @escaping @Sendable () -> any ByteStreamHandler, unsentOutputLimit: Int) {
            self.makeHandler = makeHandler
            self.unsentOutputLimit = unsentOutputLimit
        }
    }

    /// - Parameters:
    ///   - unsentOutputLimit: bytes written to the stream and not yet taken by the client, at most.
    ///   - makeHandler: called once, on the connection's loop, when the head has been written.
    public init(unsentOutputLimit: Int, _ makeHandler: @escaping @Sendable () -> any ByteStreamHandler) {
        box = Box(makeHandler: makeHandler, unsentOutputLimit: max(1, unsentOutputLimit))
    }

    /// A new handler for one connection.
    public func makeHandler() -> any ByteStreamHandler { box.makeHandler() }

    public var unsentOutputLimit: Int { box.unsentOutputLimit }

    public static func == (lhs: ByteStreamHandoff, rhs: ByteStreamHandoff) -> Bool { lhs.box === rhs.box }
}
