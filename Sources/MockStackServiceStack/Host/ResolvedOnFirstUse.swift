import Synchronization

/// A value worked out the first time something asks for it, then kept: for what a request may
/// never need (a type no answer holds, an operation nobody calls), so that start-up does not
/// pay for it. Safe from any thread: two first uses at once may both work it out, and the one
/// kept first is what both get; a later read is one uncontended lock. (Not the standard
/// library's `AtomicLazyReference`: its `load()` is not inlined on Linux and looks up generic
/// metadata on every call, which Hello's path would pay on every request.)
final class ResolvedOnFirstUse<Value: AnyObject & Sendable>: Sendable {
    private let resolve: @Sendable () -> Value
    private let resolved = Mutex<Value?>(nil)

    init(_ resolve: @escaping @Sendable () -> Value) {
        self.resolve = resolve
    }

    var value: Value {
        if let value = resolved.withLock({ $0 }) { return value }
        // Worked out outside the lock: resolving a class may ask for others.
        let made = resolve()
        return resolved.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }
}
