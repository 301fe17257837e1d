import MockStackCore

/// What a subscription says of itself (docs/servicestack-server-events.md#subscribers): every
/// value a string, as ServerEventsFeature keeps them in a string dictionary. The keys come in the
/// order that dictionary enumerates them on .NET 8 (its buckets, not the order they were added).
extension ServerEventsHub {
    /// `userId`, `isAuthenticated`, `displayName`, `channels`, `createdAt`, `profileUrl`: what
    /// other subscribers and `GetEventSubscribers` see.
    func meta(of subscription: ServerEventsSubscription) -> JSONValue { .object(metaObject(of: subscription)) }

    /// The meta and the subscription's own addresses and timings: `cmd.onConnect`'s body.
    func connectArguments(of subscription: ServerEventsSubscription, baseURL: String) -> JSONValue {
        var arguments = metaObject(of: subscription)
        arguments["id"] = .string(subscription.id)
        arguments["unRegisterUrl"] = .string("\(baseURL)/event-unregister?id=\(subscription.id)")
        arguments["heartbeatUrl"] = .string("\(baseURL)/event-heartbeat?id=\(subscription.id)")
        arguments["updateSubscriberUrl"] = .string("\(baseURL)/event-subscribers/\(subscription.id)")
        arguments["heartbeatIntervalMs"] = .string(String(settings.heartbeatIntervalMilliseconds))
        arguments["idleTimeoutMs"] = .string(String(settings.idleTimeoutMilliseconds))
        return .object(arguments)
    }

    private func metaObject(of subscription: ServerEventsSubscription) -> JSONObject {
        let identity = subscription.identity
        return [
            "channels": .string(subscription.channels.joined(separator: ",")),
            "userId": .string(identity.userId),
            "profileUrl": .string(identity.profileUrl),
            "createdAt": .string(String(subscription.createdAt)),
            "isAuthenticated": .string(identity.isAuthenticated ? "true" : "false"),
            "displayName": .string(identity.displayName),
        ]
    }
}
