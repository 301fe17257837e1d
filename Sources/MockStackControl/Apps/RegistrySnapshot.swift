/// One loop's copy of the registry's table, refreshed only when the table has changed: the
/// request path reads the registry through it without a lock, one atomic load of the table's
/// generation a request (docs/load-cache.md).
///
/// Each loop's responder holds its own (``RootResponder/forLoop()``), made before the loop runs
/// and then read and written only on that loop's thread, one request at a time: that is what
/// makes it safe to mark `Sendable`. A snapshot called from two threads at once would race, so
/// a responder any thread may call has none.
package final class RegistrySnapshot: @unchecked Sendable {
    private let registry: AppRegistry
    private var table: MountedApps
    /// The registry's generation `table` was read at.
    private var generation: UInt64

    package init(of registry: AppRegistry) {
        self.registry = registry
        (table, generation) = registry.versioned
    }

    /// The registry's table as it stands: the copy kept, or the new one read once it changed.
    var current: MountedApps {
        if registry.generation != generation {
            (table, generation) = registry.versioned
        }
        return table
    }
}
