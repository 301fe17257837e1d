import Synchronization

/// A value worked out the first time something asks for it, then kept: for what a request may
/// never need (a type no answer holds, an operation nobody calls), so that start-up does not
/// pay for it. Safe from any thread: two first uses at once may both work it out, and the one
/// kept first is what both get; every later read is one atomic load, no lock.
final class ResolvedOnFirstUse<Value: AnyObject & Sendable>: Sendable {
    private let resolve: @Sendable () -> Value
    private let resolved = AtomicLazyReference<Value>()

    init(_ resolve: @escaping @Sendable () -> Value) {
        self.resolve = resolve
    }

    var value: Value {
        if let value = resolved.load() { return value }
        return resolved.storeIfNil(resolve())
    }
}
