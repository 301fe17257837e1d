public import MockStackCore

/// One port the server listens on, and who answers there.
public struct ListenerSpec: Sendable {
    /// A name for logs and the ready line (`main`, or the exposed app's name).
    public var label: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// Makes the responder one loop answers with, once for each loop before it runs: the
    /// responder is then called on that loop's thread alone, so it may keep what only its loop
    /// reads and writes (a snapshot of what it routes by), with no lock between loops.
    public var responderForLoop: @Sendable () -> any Responder
    /// The TLS every connection speaks first (`serve --https-port`); nil for plain HTTP.
    public var tls: TLSContext?

    /// Every loop answers with `responder`.
    public init(label: String, port: Int, tls: TLSContext? = nil, responder: any Responder) {
        self.init(label: label, port: port, tls: tls, responderForLoop: { responder })
    }

    /// Each loop answers with a responder of its own, made by `responderForLoop`.
    public init(
        label: String, port: Int, tls: TLSContext? = nil, responderForLoop: @escaping @Sendable () -> any Responder
    ) {
        self.label = label
        self.port = port
        self.tls = tls
        self.responderForLoop = responderForLoop
    }
}

/// A listener once bound: the port it really got.
public struct BoundListener: Sendable, Equatable {
    public var label: String
    public var host: String
    public var port: Int
}
