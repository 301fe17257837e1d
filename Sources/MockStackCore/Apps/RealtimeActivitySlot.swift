import Synchronization

/// Where an app reports what its real-time connections do (``RealtimeApp/observeActivity(_:)``):
/// one observer, set and called from any thread, and called outside the slot's lock, since it
/// may call back into the app.
///
/// The observer is kept in a class, not as a function value in the `Mutex` itself: a function
/// value read through `withLock`'s `inout` access is written back re-wrapped in conversion
/// thunks, so a closure kept there directly would grow a layer with every report and make each
/// call slower and deeper than the last.
public final class RealtimeActivitySlot: Sendable {
    private final class Observer: Sendable {
        let report: @Sendable (RealtimeActivity) -> Void

        init(_ report: @escaping @Sendable (RealtimeActivity) -> Void) { self.report = report }
    }

    private let observer = Mutex<Observer?>(nil)

    public init() {}

    /// Replaces the observer.
    public func set(_ observer: @escaping @Sendable (RealtimeActivity) -> Void) {
        self.observer.withLock { $0 = Observer(observer) }
    }

    /// Whether anyone listens: a report whose making costs something can be skipped.
    public var isObserved: Bool { observer.withLock { $0 != nil } }

    /// Tells the observer, if there is one.
    public func report(_ activity: RealtimeActivity) { observer.withLock { $0 }?.report(activity) }
}
