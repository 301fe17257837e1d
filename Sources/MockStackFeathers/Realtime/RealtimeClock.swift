import Dispatch
import Synchronization

/// Runs the real-time layer's timers (Engine.IO's heartbeat, upgrade and close timeouts): each
/// action later, on some thread, unless cancelled first. Tests give their own.
public protocol RealtimeClock: Sendable {
    /// Runs `action` after `milliseconds`; the returned timer cancels it.
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) -> RealtimeTimer
}

/// A scheduled action's handle.
public struct RealtimeTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    /// Stops the action from running, if it has not started.
    public func cancel() { cancelAction() }
}

/// Timers on a Dispatch queue of their own: a heartbeat fires every 25 s per connection, far too
/// rarely to be worth an event loop's timer wheel, and never on a loop thread.
public struct DispatchRealtimeClock: RealtimeClock {
    private static let queue = DispatchQueue(label: "mockstack.realtime-timers")

    public init() {}

    public func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) -> RealtimeTimer
    {
        let cancelled = CancelFlag()
        Self.queue.asyncAfter(deadline: .now() + .milliseconds(max(0, milliseconds))) {
            if !cancelled.isSet { action() }
        }
        return RealtimeTimer { cancelled.set() }
    }

    private final class CancelFlag: Sendable {
        private let flag = Atomic(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }
}
