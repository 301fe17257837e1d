public import MockStackCore
import MockStackSocketIO

/// A service event as the real-time transport sends it: `<path> <event>` with one record.
public struct FeathersEvent: Sendable, Equatable {
    /// The service's path (`messages`).
    public let service: String
    /// `created`, `updated`, `patched`, `removed`, or a custom event.
    public let name: String
    /// The record after the service's hooks: what the caller's answer holds.
    public let record: JSONValue

    /// The Socket.IO packet that carries it, `2["messages created",{…}]`: written once, however
    /// many connections it goes to.
    public let packet: String

    public init(service: String, name: String, record: JSONValue) {
        self.service = service
        self.name = name
        self.record = record
        packet = SocketIOPacket.event(service + " " + name, [record]).encoded
    }

    /// The Socket.IO event name: `messages created`.
    public var socketEventName: String { service + " " + name }

    /// The event a method emits, if any (`find` and `get` change nothing).
    public static func name(for method: ServiceMethod) -> String? {
        switch method {
        case .create: "created"
        case .update: "updated"
        case .patch: "patched"
        case .remove: "removed"
        case .find, .get: nil
        }
    }
}
