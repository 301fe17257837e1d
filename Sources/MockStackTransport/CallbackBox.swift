/// A closure carried through a C `void *` for a persistent event (freed with the process).
final class CallbackBox {
    let action: @Sendable () -> Void
    /// The event that calls it, when the callback must remove its own event.
    var event: OpaquePointer?
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    static func from(_ arg: UnsafeMutableRawPointer) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(arg).takeUnretainedValue()
    }

    /// Gives back the reference passed retained with `arg`, when its event could not be made.
    static func release(_ arg: UnsafeMutableRawPointer) {
        Unmanaged<CallbackBox>.fromOpaque(arg).release()
    }
}
