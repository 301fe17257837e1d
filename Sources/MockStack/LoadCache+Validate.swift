public import MockStackCore
public import MockStackFixtures

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension LoadCache {
    /// `mockstack validate`'s load: the full load, every check made, then a record of it in
    /// `folder` (none when nil), which the next `serve` of the same folders (every app, no
    /// `--fixed-date`) by this binary, at release `version`, replays.
    /// - Returns: the apps, and why no record was written when one was asked for and not
    ///   written (nil when written, or not asked for).
    public static func validatedLoad(
        _ fixtures: FixtureFolders, version: String, in folder: URL?
    ) throws(FixtureErrors) -> (apps: [any MockApp], note: String?) {
        let (source, files) = try fixtures.sourceOnDisk(forOneLoad: true)
        guard let folder else { return (try AppLoader.standard.load(from: source), nil) }
        guard let key = LoadCacheKey(version: version, folders: fixtures.folders, apps: nil, fixedDate: nil) else {
            return (
                try AppLoader.standard.load(from: source),
                "no record (the executable or a fixtures folder cannot be identified)"
            )
        }
        let loaded = try LoadCache(folder: folder).recordedLoad(
            loader: .standard, source: source, files: files, key: key)
        return (loaded.apps, loaded.written.hasPrefix(Self.writtenPrefix) ? nil : loaded.written)
    }
}
