package import MockStackCore
import Synchronization

/// The apps being served, swappable as a whole while requests run (`serve --watch`): a
/// request sees the old table or the new one, never a mix.
///
/// A mount may hold an app not built yet (``UnbuiltApp``, a load cache hit's): its first use
/// builds it, once, and swaps the built app into the table, so the requests after that find it
/// as they find any app, with nothing in between (docs/load-cache.md).
package final class AppRegistry: Sendable {
    private let table: Mutex<MountedApps>
    /// Counts the table's changes, raised after each (under the lock): a loop's
    /// ``RegistrySnapshot`` reads it on every request, and the table itself only when it moved.
    private let changes = Atomic<UInt64>(0)
    /// Told of every app that starts being served (the real-time journal's observer).
    private let onServe: @Sendable (any MockApp) -> Void

    package convenience init(apps: [any MockApp], onServe: @escaping @Sendable (any MockApp) -> Void = { _ in }) {
        self.init(mounted: apps.map(MountedApp.built), onServe: onServe)
    }

    /// - Parameter mounted: what each mount serves, in load order; an unbuilt app is told to
    ///   `onServe` when it is built.
    package init(mounted: [MountedApp], onServe: @escaping @Sendable (any MockApp) -> Void = { _ in }) {
        table = Mutex(MountedApps(mounted))
        self.onServe = onServe
        for case .built(let app) in mounted { onServe(app) }
    }

    /// The table as it stands: what a request routes by (each loop through its own
    /// ``RegistrySnapshot``, which takes no lock while the table stays as it is).
    var current: MountedApps { table.withLock { $0 } }

    /// How many times the table has changed.
    var generation: UInt64 { changes.load(ordering: .acquiring) }

    /// The table and the generation it is, read together.
    var versioned: (MountedApps, UInt64) {
        table.withLock { ($0, changes.load(ordering: .relaxed)) }
    }

    /// What each mount serves now, in load order, building nothing.
    package var mounted: [MountedApp] { current.entries }

    /// Every app, in load order; those not built yet are built now.
    package var apps: [any MockApp] { mounted.map(app(for:)) }

    /// The app `mounted` serves: itself when built, else built now by this caller (or by the
    /// build under way, waited for).
    package func app(for mounted: MountedApp) -> any MockApp {
        switch mounted {
        case .built(let app): app
        case .unbuilt(let unbuilt): build(unbuilt)
        }
    }

    /// Builds every app not built yet, one after another in load order.
    /// - Returns: the names of the apps this call built.
    @discardableResult
    package func buildAll() -> [String] {
        mounted.compactMap { mounted in
            guard case .unbuilt(let unbuilt) = mounted else { return nil }
            var built = false
            _ = unbuilt.app { app in
                install(app, for: unbuilt)
                built = true
            }
            return built ? unbuilt.name : nil
        }
    }

    private func build(_ unbuilt: UnbuiltApp) -> any MockApp {
        unbuilt.app { install($0, for: unbuilt) }
    }

    /// Swaps the app just built in where it stood unbuilt, once: it hears the journal's observer
    /// first, so no socket opens on it unobserved.
    private func install(_ app: any MockApp, for unbuilt: UnbuiltApp) {
        onServe(app)
        table.withLock { table in
            guard let next = table.installing(app, for: unbuilt) else { return }
            table = next
            changes.add(1, ordering: .releasing)
        }
    }

    /// Serves the apps named in `all`, in its order: `fresh` ones where given, otherwise what
    /// already serves under that name (keeping its state, built or not), otherwise the one in
    /// `all`. Apps not in `all` stop being served.
    package func install(_ all: [any MockApp], replacing fresh: [any MockApp]) {
        let (served, dropped) = table.withLock { table -> ([any MockApp], [MountedApp]) in
            let current = table.entries
            var served: [any MockApp] = []
            table = MountedApps(
                all.map { app in
                    if let replacement = fresh.first(where: { $0.name == app.name }) {
                        served.append(replacement)
                        return .built(replacement)
                    }
                    if let kept = current.first(where: { $0.name == app.name }) { return kept }
                    served.append(app)
                    return .built(app)
                })
            changes.add(1, ordering: .releasing)
            // Replaced by a fresh app of that name, or no longer among the apps.
            let dropped = current.filter { app in
                fresh.contains { $0.name == app.name } || !all.contains { $0.name == app.name }
            }
            return (served, dropped)
        }
        // Outside the lock: new apps report to the journal, dropped ones let their sockets go
        // (one never built has none).
        for app in served { onServe(app) }
        for case .built(let app as any RealtimeApp) in dropped { app.disconnectAll() }
    }
}
