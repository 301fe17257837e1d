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
        for app in all where !apps.contains(where: { $0.name == app.name }) || fresh.contains(where: { $0.name == app.name }) {
            onServe(fresh.first { $0.name == app.name } ?? app)
        }
        table.withLock { table in
            let current = table.apps
            table = MountTable(apps: all.map { app in
                fresh.first { $0.name == app.name } ?? current.first { $0.name == app.name } ?? app
            })
        }
    }
}
