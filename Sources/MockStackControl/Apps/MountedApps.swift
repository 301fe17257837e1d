import MockStackCore

/// One version of the registry's table: what each mount serves, in load order. Never changed
/// once made: a build or a reload makes the next version, so a request reads the table it got
/// without a lock.
final class MountedApps: Sendable {
    let entries: [MountedApp]
    private let lookup: MountIndex

    init(_ entries: [MountedApp]) {
        self.entries = entries
        lookup = MountIndex(mounts: entries.map(\.mount))
    }

    /// What is mounted where `path` goes, if anything.
    func entry(owning path: String) -> MountedApp? {
        lookup.index(owning: path).map { entries[$0] }
    }

    /// What is mounted under the name `name`.
    func entry(named name: String) -> MountedApp? {
        entries.first { $0.name == name }
    }

    /// This table with `app` serving where `unbuilt` stood; nil when `unbuilt` is not in it
    /// (a reload replaced it, or dropped its folder, while it was being built).
    func installing(_ app: any MockApp, for unbuilt: UnbuiltApp) -> MountedApps? {
        let position = entries.firstIndex { entry in
            if case .unbuilt(let waiting) = entry { waiting === unbuilt } else { false }
        }
        guard let position else { return nil }
        var entries = entries
        entries[position] = .built(app)
        return MountedApps(entries)
    }
}
