package import MockStackCore
import Synchronization

/// The apps being served, swappable as a whole while requests run (`serve --watch`): a
/// request sees the old table or the new one, never a mix.
package final class AppRegistry: Sendable {
    private let table: Mutex<MountTable>
    /// Told of every app that starts being served (the real-time journal's observer).
    private let onServe: @Sendable (any MockApp) -> Void

    package init(apps: [any MockApp], onServe: @escaping @Sendable (any MockApp) -> Void = { _ in }) {
        table = Mutex(MountTable(apps: apps))
        self.onServe = onServe
        for app in apps { onServe(app) }
    }

    package var mounts: MountTable { table.withLock { $0 } }
    package var apps: [any MockApp] { mounts.apps }

    /// Serves the apps named in `all`, in its order: `fresh` ones where given, otherwise the
    /// one already serving under that name (keeping its state), otherwise the one in `all`.
    /// Apps not in `all` stop being served.
    package func install(_ all: [any MockApp], replacing fresh: [any MockApp]) {
        let (served, dropped) = table.withLock { table -> ([any MockApp], [any MockApp]) in
            let current = table.apps
            var served: [any MockApp] = []
            table = MountTable(apps: all.map { app in
                if let replacement = fresh.first(where: { $0.name == app.name }) {
                    served.append(replacement)
                    return replacement
                }
                if let kept = current.first(where: { $0.name == app.name }) { return kept }
                served.append(app)
                return app
            })
            // Replaced by a fresh app of that name, or no longer among the apps.
            let dropped = current.filter { app in fresh.contains { $0.name == app.name } || !all.contains { $0.name == app.name } }
            return (served, dropped)
        }
        // Outside the lock: new apps report to the journal, dropped ones let their sockets go.
        for app in served { onServe(app) }
        for app in dropped { app.realtime?.disconnectAll() }
    }
}
