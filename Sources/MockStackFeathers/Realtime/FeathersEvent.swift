public import MockStackCore

/// A service event as the real-time transport sends it: `<path> <event>` with one record.
public struct FeathersEvent: Sendable, Equatable {
    /// The service's path (`messages`).
    public var service: String
    /// `created`, `updated`, `patched`, `removed`, or a custom event.
    public var name: String
    /// The record after the service's hooks: what the caller's answer holds.
    public var record: JSONValue

    public init(service: String, name: String, record: JSONValue) {
        self.service = service
        self.name = name
        self.record = record
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
