import Dispatch

/// `serve --watch`'s looking, for the fixtures and the stub files alike: polling, which works the
/// same on macOS, on Linux and on a folder bind-mounted into a container, where file events from
/// the host do not arrive.
enum WatchLoop {
    /// Calls `look` on `owner` every `intervalMilliseconds`, on a queue of its own, until `stop`
    /// is signalled or the owner is gone.
    static func start<Owner: AnyObject & Sendable>(
        label: String, intervalMilliseconds: Int, stop: DispatchSemaphore, owner: Owner,
        look: @escaping @Sendable (Owner) -> Void
    ) {
        DispatchQueue(label: label).async { [weak owner] in
            while owner != nil, stop.wait(timeout: .now() + .milliseconds(intervalMilliseconds)) == .timedOut {
                guard let owner else { return }
                look(owner)
            }
        }
    }
}
