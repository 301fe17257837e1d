import MockStackCore

/// The paths `ServerEventsFeature` adds to a host (docs/servicestack-server-events.md#the-feature),
/// relative to the app's mount and in any ASCII case, and the two services behind them, which
/// also answer on the predefined routes (`/api/GetEventSubscribers`).
struct ServerEventsRoute: Sendable, Equatable {
    enum Service: Sendable, Equatable {
        case stream
        case heartbeat
        case unregister
        case subscribers
        /// `UpdateEventSubscriber`, with the id its path names, if it does.
        case updateSubscriber(id: String?)
    }

    let name: String
    let service: Service

    /// The feature's rows for the routes listing: name, verbs, path.
    static let listing: [(name: String, methods: [String], path: String)] = [
        ("ServerEventsStream", ["GET"], "/event-stream"),
        ("ServerEventsHeartbeat", ["ANY"], "/event-heartbeat"),
        ("ServerEventsUnRegister", ["ANY"], "/event-unregister"),
        ("GetEventSubscribers", ["ANY"], "/event-subscribers"),
        ("UpdateEventSubscriber", ["POST"], "/event-subscribers/{Id}"),
        ("GetEventSubscribers", ["ANY"], "/api/GetEventSubscribers"),
        ("UpdateEventSubscriber", ["ANY"], "/api/UpdateEventSubscriber"),
    ]

    /// The feature's route at `path`, or nil. Asked only of paths whose second byte is `e`, and
    /// of predefined routes naming no operation of the app.
    static func route(for path: String) -> ServerEventsRoute? {
        if path.equalsIgnoringASCIICase("/event-stream") {
            return ServerEventsRoute(name: "ServerEventsStream", service: .stream)
        }
        if path.equalsIgnoringASCIICase("/event-heartbeat") {
            return ServerEventsRoute(name: "ServerEventsHeartbeat", service: .heartbeat)
        }
        if path.equalsIgnoringASCIICase("/event-unregister") {
            return ServerEventsRoute(name: "ServerEventsUnRegister", service: .unregister)
        }
        if path.equalsIgnoringASCIICase("/event-subscribers") {
            return ServerEventsRoute(name: "GetEventSubscribers", service: .subscribers)
        }
        let prefix = "/event-subscribers/"
        if path.hasPrefixIgnoringASCIICase(prefix) {
            let id = String(path.dropFirst(prefix.count))
            guard !id.isEmpty, !id.contains("/") else { return nil }
            return ServerEventsRoute(name: "UpdateEventSubscriber", service: .updateSubscriber(id: id))
        }
        return nil
    }

    /// The feature's service a predefined route (`/api/{Op}`, `/json/reply/{Op}`) names, if any.
    static func service(named operation: String) -> ServerEventsRoute? {
        if operation.equalsIgnoringASCIICase("GetEventSubscribers") {
            return ServerEventsRoute(name: "GetEventSubscribers", service: .subscribers)
        }
        if operation.equalsIgnoringASCIICase("UpdateEventSubscriber") {
            return ServerEventsRoute(name: "UpdateEventSubscriber", service: .updateSubscriber(id: nil))
        }
        return nil
    }
}
