public import MockStackCore
import MockStackSocketIO

/// What the control plane does with a Feathers app's sockets (``RealtimeApp``).
extension FeathersApp {
    public var realtimeConnections: [RealtimeConnection] { realtime.connections }

    public func disconnect(_ id: String) -> Bool { realtime.close(connection: id) }

    public func disconnectAll() { realtime.closeAll() }

    public func push(event name: String, arguments: [JSONValue], to audience: RealtimeAudience) -> Int {
        let packet = SocketIOPacket.event(name, arguments).encoded
        let recipients = realtime.sockets.reduce(0) { count, connection in
            connection.push(packet, to: audience) ? count + 1 : count
        }
        report(
            RealtimeActivity(kind: .event, connection: nil, name: name, data: .array(arguments), recipients: recipients)
        )
        return recipients
    }

    public func delayEvents(byMilliseconds milliseconds: Int) { realtime.delayEvents(byMilliseconds: milliseconds) }

    public var eventDelayMilliseconds: Int { realtime.eventDelayMilliseconds }

    public func observeActivity(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        activityObserverSlot.set(observer)
    }

    /// Tells the control plane, if it listens.
    func report(_ activity: RealtimeActivity) {
        activityObserverSlot.report(activity)
    }
}
