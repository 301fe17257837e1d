import MockStackCore
import Synchronization

/// A Feathers app's event bus: every successful `create`, `update`, `patch` and `remove`, over
/// REST or the socket, is handed to each listener (the app's real-time connections, which decide
/// by their channels whether to send it). A multi result is one event per record, in order, as
/// Feathers emits them. With no listener, publishing costs one atomic load.
public final class FeathersEventHub: Sendable {
    /// A listener's handle, for ``remove(_:)``.
    public struct Subscription: Sendable, Hashable {
        fileprivate let id: Int
    }

    private struct Listeners {
        var nextID = 0
        var byID: [Int: @Sendable (FeathersEvent) -> Bool] = [:]
    }

    private let listeners = Mutex(Listeners())
    private let listenerCount = Atomic<Int>(0)

    public init() {}

    /// Adds a listener; it is called on the thread of the call that changed the records, once
    /// per event, never while the hub's lock is held, and says whether it sent the event on.
    public func add(_ listener: @escaping @Sendable (FeathersEvent) -> Bool) -> Subscription {
        listeners.withLock { state in
            state.nextID += 1
            state.byID[state.nextID] = listener
            listenerCount.store(state.byID.count, ordering: .releasing)
            return Subscription(id: state.nextID)
        }
    }

    public func remove(_ subscription: Subscription) {
        listeners.withLock { state in
            state.byID[subscription.id] = nil
            listenerCount.store(state.byID.count, ordering: .releasing)
        }
    }

    /// How many listeners there are.
    public var count: Int { listenerCount.load(ordering: .acquiring) }

    /// Publishes what a method call returned.
    /// - Returns: each event sent, with how many listeners sent it on (none without listeners).
    @discardableResult
    func publish(service: String, method: ServiceMethod, result: JSONValue) -> [(event: FeathersEvent, recipients: Int)]
    {
        guard listenerCount.load(ordering: .acquiring) > 0, let name = FeathersEvent.name(for: method) else {
            return []
        }
        let records: [JSONValue] = if case .array(let items) = result { items } else { [result] }
        let targets = listeners.withLock { Array($0.byID.values) }
        return records.map { record in
            let event = FeathersEvent(service: service, name: name, record: record)
            return (event, targets.reduce(0) { count, listener in listener(event) ? count + 1 : count })
        }
    }
}
