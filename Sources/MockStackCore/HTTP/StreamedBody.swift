/// What a responder hands the connection to when its answer's body is written later, piece by
/// piece, for as long as the answer lasts (``Delivery/streamed(_:)``): Server-Sent Events. The
/// head goes out at once, without a `Content-Length`; from then on each ``ByteStream/write(_:)``
/// is more of the body (chunked transfer coding on HTTP/1.1; on HTTP/1.0 the bytes as they are,
/// the close ending the body), ``ByteStream/close()`` ends the body and then the connection, and
/// ``ByteStream/cut()`` ends the connection without ending the body.
///
/// The handler it makes is served as an upgraded connection's is: ``ByteStreamHandler/received(_:)``
/// gets what the client sends after its request (a well-behaved client sends nothing), and
/// ``ByteStreamHandler/streamEnded()`` comes once the connection has ended for any reason.
/// The same bound on output the client does not take applies (`unsentOutputLimit`), and the
/// same send timeout. Equal only to itself (its ``ByteStreamHandoff``), so that ``Delivery`` stays
/// `Equatable`.
public struct StreamedBody: Sendable, Equatable, CustomStringConvertible {
    public let handoff: ByteStreamHandoff

    /// - Parameters:
    ///   - unsentOutputLimit: bytes written and not yet taken by the client, at most; past it
    ///     the connection is dropped, as an upgraded one's is.
    ///   - makeHandler: called once, on the connection's loop, when the head has been written.
    public init(
        unsentOutputLimit: Int = ConnectionUpgrade.defaultUnsentOutputLimit,
        _ makeHandler: @escaping @Sendable () -> any ByteStreamHandler
    ) {
        handoff = ByteStreamHandoff(unsentOutputLimit: unsentOutputLimit, makeHandler)
    }

    /// A new handler for one answer.
    public func makeHandler() -> any ByteStreamHandler { handoff.makeHandler() }

    public var unsentOutputLimit: Int { handoff.unsentOutputLimit }

    public var description: String { "StreamedBody(unsentOutputLimit: \(unsentOutputLimit))" }
}
