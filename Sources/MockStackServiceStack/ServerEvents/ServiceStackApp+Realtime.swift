public import MockStackCore

/// What the control plane sees of a ServiceStack app's Server Events (``ServerEventsApp``):
/// nothing at all when the host does not have the feature.
extension ServiceStackApp: ServerEventsApp {
    public var keepsRealtimeConnections: Bool { context.serverEvents != nil }

    public var realtimeConnections: [RealtimeConnection] {
        guard let hub = context.serverEvents else { return [] }
        return hub.subscribers(channels: []).map { subscription in
            RealtimeConnection(
                id: subscription.id, transport: "event-stream", protocolName: "Server Events",
                signedIn: subscription.identity.isAuthenticated, channels: subscription.channels)
        }
    }

    public func disconnect(_ id: String) -> Bool { context.serverEvents?.unregister(id) != nil }

    public func disconnectAll() { context.serverEvents?.endAll() }

    /// `cmd.<event>` with the first argument as its body (none: an empty body) to the
    /// subscribers of `audience`.
    public func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int {
        guard let hub = context.serverEvents else { return 0 }
        let selector = name.contains(".") ? name : "cmd." + name
        return hub.notify(.everyone, selector: selector, body: arguments.first?.encoded() ?? []) { subscription in
            switch audience {
            case .all: true
            case .authenticated: subscription.identity.isAuthenticated
            case .anonymous: !subscription.identity.isAuthenticated
            }
        } ?? 0
    }

    public func delayEvents(byMilliseconds milliseconds: Int) {
        context.serverEvents?.delayEvents(byMilliseconds: milliseconds)
    }

    public var eventDelayMilliseconds: Int { context.serverEvents?.eventDelayMilliseconds ?? 0 }

    public func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        context.serverEvents?.observe(observer)
    }

    public func serverEventSubscribers(channel: String?) -> [ServerEventSubscriber] {
        guard let hub = context.serverEvents else { return [] }
        let now = hub.clock.monotonicMilliseconds()
        return hub.subscribers(channels: channel.map { [$0] } ?? []).map { subscription in
            ServerEventSubscriber(
                id: subscription.id, userId: subscription.identity.userId,
                displayName: subscription.identity.displayName, isAuthenticated: subscription.identity.isAuthenticated,
                channels: subscription.channels, createdAt: subscription.createdAt,
                idleMilliseconds: max(0, now - subscription.lastPulse), eventsSent: subscription.eventsSent)
        }
    }

    public func sendServerEvent(_ message: ServerEventMessage) -> Result<Int, ServerEventRefusal> {
        guard let hub = context.serverEvents else { return .success(0) }
        if let problem = ServerEventFrame.problem(withName: message.selector, kind: "selector") {
            return .failure(.invalidName(problem))
        }
        let body = message.body?.encoded() ?? []
        let size = message.selector.utf8.count + body.count
        if size > hub.settings.maxMessageBytes { return .failure(.tooLarge(size, limit: hub.settings.maxMessageBytes)) }
        if case .channel(let channel) = message.target,
            let problem = ServerEventFrame.problem(withName: channel, kind: "channel")
        {
            return .failure(.invalidName(problem))
        }
        guard let sent = hub.notify(message.target, selector: message.selector, body: body, cut: message.cut) else {
            guard case .subscription(let id) = message.target else { return .success(0) }
            return .failure(.unknownSubscription(id))
        }
        return .success(sent)
    }
}
