import CLibevent
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Worker {
    /// Runs `action` on this loop after `milliseconds` (0 = next turn). Safe from any thread.
    func runOnLoop(after milliseconds: Int = 0, _ action: @escaping (Worker) -> Void) {
        let box = Unmanaged.passRetained(DeferredAction(worker: self, action: action)).toOpaque()
        var delay = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
        let status = event_base_once(
            base, -1, Int16(EV_TIMEOUT),
            { _, _, arg in
                guard let arg else { return }
                let deferred = DeferredAction.takeBack(arg)
                deferred.action(deferred.worker)
            }, box, &delay)
        if !logger.succeeded(status, "event_base_once", level: .error, "a deferred action was dropped") {
            _ = DeferredAction.takeBack(box)
        }
    }
}

/// A closure carried through a C `void *` for a one-shot timer.
private final class DeferredAction: @unchecked Sendable {
    let worker: Worker
    let action: (Worker) -> Void

    init(worker: Worker, action: @escaping (Worker) -> Void) {
        self.worker = worker
        self.action = action
    }

    /// The action behind a one-shot timer's argument, whose reference (passed retained) comes
    /// back to Swift: it is freed once used.
    static func takeBack(_ arg: UnsafeMutableRawPointer) -> DeferredAction {
        Unmanaged<DeferredAction>.fromOpaque(arg).takeRetainedValue()
    }
}
