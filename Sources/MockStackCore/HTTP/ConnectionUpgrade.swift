/// What a responder hands the connection to when it answers `101 Switching Protocols`
/// (``Delivery/upgrade(_:)``): after the 101 goes out, the connection is a plain byte stream
/// served by the handler this makes, one per connection.
///
/// Equal only to itself (its ``ByteStreamHandoff``), so that ``Delivery`` stays `Equatable`.
public struct ConnectionUpgrade: Sendable, Equatable, CustomStringConvertible {
    /// The default ``unsentOutputLimit``: 4 MiB.
    public static let defaultUnsentOutputLimit = 4 << 20

    public let handoff: ByteStreamHandoff

    /// - Parameters:
    ///   - unsentOutputLimit: bytes written to the stream and not yet taken by the client, at
    ///     most; past it the connection is dropped.
    ///   - makeHandler: called once, on the connection's loop, when the 101 has been written.
    public init(
        unsentOutputLimit: Int = ConnectionUpgrade.defaultUnsentOutputLimit,
        _ makeHandler: @escaping @Sendable () -> any ByteStreamHandler
    ) {
        handoff = ByteStreamHandoff(unsentOutputLimit: unsentOutputLimit, makeHandler)
    }

    /// A new handler for one connection.
    public func makeHandler() -> any ByteStreamHandler { handoff.makeHandler() }

    public var unsentOutputLimit: Int { handoff.unsentOutputLimit }

    public var description: String { "ConnectionUpgrade(unsentOutputLimit: \(unsentOutputLimit))" }
}

/// Serves a connection after its upgrade. The transport calls it on the connection's event
/// loop, one call at a time, never from inside a ``ByteStream`` method.
public protocol ByteStreamHandler: AnyObject {
    /// The 101 has been written; `stream` carries the handler's bytes to the client from now on.
    /// Called first, once.
    func started(on stream: any ByteStream)
    /// Bytes from the client, in order; the first ones may have arrived with the upgrade request.
    func received(_ bytes: [UInt8])
    /// The server is stopping gracefully: say goodbye on the stream and close it. The
    /// connection is closed anyway once its output is out or the grace period is over.
    func serverStopping()
    /// The stream takes output now, as the handler asked (``ByteStream/requestOutput()``):
    /// everything written before has gone to the socket. A handler that writes as its client
    /// reads (back-pressure) writes its next piece here. Not called once the stream is ending.
    func outputWanted()
    /// The connection has ended (the client left, the stream was closed or dropped, or the server
    /// stopped). Called last, once; the stream ignores writes from now on.
    func streamEnded()
}

extension ByteStreamHandler {
    /// Handlers that write as they go never ask for output.
    public func outputWanted() {}
}

/// The client end of an upgraded connection. Every method may be called from any thread, and
/// returns at once: the work is done on the connection's loop, in the order the calls were made
/// (from each thread), and never calls the handler back before returning.
public protocol ByteStream: AnyObject, Sendable {
    /// Queues `bytes` for the client. When more than the upgrade's `unsentOutputLimit` is waiting,
    /// the connection is dropped instead. Ignored once the stream is closed.
    func write(_ bytes: [UInt8])
    /// Closes the connection once what was written before has gone out (a streamed body is
    /// ended first, with its last chunk). Later writes are ignored.
    func close()
    /// Closes the connection once what was written before has gone out, without ending a
    /// streamed body: the client sees its answer cut off (a fault). Later writes are ignored.
    func cut()
    /// Resets the connection, dropping whatever is unsent: for a client that has fallen too
    /// far behind, as one past the unsent-output limit is. Later writes are ignored.
    func drop()
    /// Asks for ``ByteStreamHandler/outputWanted()`` on the loop's next pass over its streams
    /// at which the connection has sent everything written before; once, however often asked
    /// meanwhile. Rendering output there rather than when it is made keeps a fan-out to many
    /// streams cheap for its sender and bounds what each pass does.
    func requestOutput()
    /// Runs `action` on the connection's loop after `milliseconds`, unless the connection has
    /// ended by then.
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void)
}
