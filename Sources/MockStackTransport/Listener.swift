public import MockStackCore

/// One port the server listens on, and who answers there.
public struct ListenerSpec: Sendable {
    /// A name for logs and the ready line (`main`, or the exposed app's name).
    public var label: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    public var responder: any Responder

    public init(label: String, port: Int, responder: any Responder) {
        self.label = label
        self.port = port
        self.responder = responder
    }
}

/// A listener once bound: the port it really got.
public struct BoundListener: Sendable, Equatable {
    public var label: String
    public var host: String
    public var port: Int
}
