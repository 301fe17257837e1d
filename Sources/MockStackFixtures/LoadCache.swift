package import MockStackControl
package import MockStackCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The load cache (docs/load-cache.md): after a full load succeeds, a ``LoadRecord`` of what it
/// read, with each file's `stat` and digest; at the next start, each file's `stat` compared (and
/// its bytes, where `stat` cannot be trusted). The same answers mean the fixtures are those that
/// passed every check, so the checks are skipped and every app is built after the ready line (an
/// ``UnbuiltApp`` the registry builds at its first use), from the files then, each checked against
/// its digest. Any difference, or no usable record, is the full load, as without the cache,
/// followed by a fresh record.
public struct LoadCache: Sendable {
    /// The folder the records are kept in.
    public let folder: URL

    static let recordSuffix = ".record"
    /// How a note of a written record begins.
    package static let writtenPrefix = "record written to "
    /// Records kept at most; past it the oldest go (records of older binaries, other fixtures).
    static let keptRecords = 32

    /// The wall clock, in nanoseconds since the epoch: when a load or check began (tests move it
    /// to make files old or new relative to a record).
    let clock: @Sendable () -> Int64

    public init(folder: URL) {
        self.init(folder: folder, clock: FileSignature.now)
    }

    init(folder: URL, clock: @escaping @Sendable () -> Int64) {
        self.folder = folder
        self.clock = clock
    }

    /// The environment variables ``defaultFolder(environment:)`` reads.
    public static let environmentNames = ["MOCKSTACK_CACHE_DIR", "XDG_CACHE_HOME", "HOME"]

    /// The folder `mockstack serve` and `validate` use: `$MOCKSTACK_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/mockstack`, else `$HOME/.cache/mockstack`; nil (no cache) when
    /// `MOCKSTACK_CACHE_DIR` is `off` or no folder can be named.
    public static func defaultFolder(environment: [String: String]) -> URL? {
        if let chosen = environment["MOCKSTACK_CACHE_DIR"], !chosen.isEmpty {
            return chosen == "off" ? nil : URL(fileURLWithPath: chosen)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("mockstack")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/mockstack")
        }
        return nil
    }

    /// What a load through the cache did, for the debug log.
    package struct Outcome {
        /// What each mount serves: on a hit, apps not built yet; else the apps the load made.
        package var apps: [MountedApp]
        /// `hit (…)` or `miss (why); …`, one line.
        package var note: String

        package init(apps: [MountedApp], note: String) {
            self.apps = apps
            self.note = note
        }
    }

    /// Told of the mistakes a hit's app build found after all (its app then answers 500s).
    package typealias BuildFailure = @Sendable (_ app: String, FixtureErrors) -> Void
    /// What an app of a kind answers when its build after the ready line fails: a 500 in its
    /// own server's format.
    package typealias Unavailable = @Sendable (_ kind: String, _ message: String) -> HTTPResponse

    /// The apps of `source` (read with `loader`): on a hit, each to be built after the ready
    /// line; else by the full load, which then writes a fresh record.
    /// - Parameters:
    ///   - files: where on disk `source` reads its files.
    ///   - key: what the load depends on besides the files; nil: no cache for this load.
    ///   - unavailable: what a hit's app answers when its build fails.
    ///   - onBuildFailure: how a hit's apps report a build that fails.
    /// - Throws: the full load's ``FixtureErrors``; a hit never throws.
    package func load(
        loader: AppLoader, source: any FixtureSource, files: FixtureFiles, key: LoadCacheKey?,
        unavailable: @escaping Unavailable,
        onBuildFailure: @escaping BuildFailure = { _, _ in }
    ) throws(FixtureErrors) -> Outcome {
        guard let key else {
            let apps = try loader.load(from: source).map(MountedApp.built)
            return Outcome(apps: apps, note: "off (the executable or a fixtures folder cannot be identified)")
        }
        let path = folder.appendingPathComponent(key.fileName).path
        let why: String
        switch Self.readRecord(at: path) {
        case .missing: why = "no record"
        case .unusable: why = "the record is unreadable or corrupt"
        case .record(let record) where record.key != key.text: why = "the record is for another key"
        case .record(let record):
            let started = ContinuousClock.now
            switch record.check(against: source, files: files, now: clock()) {
            case .miss(let difference): why = "the fixtures changed: \(difference)"
            case .hit(let refreshed, let byStatus, let byContent):
                let checked = CheckedFixtureSource(source, record: record)
                let names = Set(loader.kinds.map(\.name))
                guard record.apps.allSatisfy({ names.contains($0.kind) }) else {
                    why = "the record names an app kind this server does not have"
                    break
                }
                let elapsed = (ContinuousClock.now - started).components
                let microseconds = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
                var note =
                    """
                    hit (\(byStatus) files and folders trusted by stat, \(byContent) read to be sure, in \
                    \(microseconds) µs, from \(path))
                    """
                if let refreshed {
                    let written = write(refreshed, as: key.fileName)
                    note += written.hasPrefix(Self.writtenPrefix) ? "; record refreshed" : "; " + written
                }
                let unbuilt = record.apps.map { described in
                    Self.unbuilt(described, loader: loader, source: checked, unavailable: unavailable) {
                        onBuildFailure(described.name, $0)
                    }
                }
                return Outcome(apps: unbuilt, note: note)
            }
        }
        let (apps, written) = try recordedLoad(loader: loader, source: source, files: files, key: key)
        return Outcome(apps: apps.map(MountedApp.built), note: "miss (\(why)); \(written)")
    }

    /// A hit's app `described`, to be built at its first use from `source` with every check of
    /// the full load; a build that finds a mistake after all makes an app answering its kind's
    /// 500, naming the first mistake, and reports them all once.
    static func unbuilt(
        _ described: AppLoader.DeferredAppDescription, loader: AppLoader, source: any FixtureSource,
        unavailable: @escaping Unavailable, onFailure: @escaping @Sendable (FixtureErrors) -> Void
    ) -> MountedApp {
        .unbuilt(
            UnbuiltApp(name: described.name, mount: described.mount, kind: described.kind) {
                let errors: FixtureErrors
                switch loader.build(described, from: source) {
                case .success(let app)?: return app
                case .failure(let found)?: errors = found
                // The kinds were checked before the hit was taken.
                case nil:
                    let unknown = FixtureDiagnostic(
                        file: described.folder, position: .start, pointer: "",
                        message: "unknown kind '\(described.kind)'")
                    errors = FixtureErrors([unknown])
                }
                onFailure(errors)
                let reason = errors.diagnostics.first?.description ?? "no reason given"
                return UnavailableApp(
                    name: described.name, mount: described.mount, kind: described.kind,
                    answer: unavailable(described.kind, "the app '\(described.name)' could not be built: \(reason)"))
            })
    }

    /// The full load, every check made, and a fresh record of it written (`mockstack validate`,
    /// and a miss).
    /// - Returns: the apps, and what became of the record, in a few words.
    package func recordedLoad(
        loader: AppLoader, source: any FixtureSource, files: FixtureFiles,
        key: LoadCacheKey
    ) throws(FixtureErrors) -> (apps: [any MockApp], written: String) {
        let began = clock()
        let recording = RecordingFixtureSource(source)
        let loaded = try loader.loadDescribed(from: recording)
        let record = LoadRecord(
            key: key.text, madeAt: began, exchanges: recording.finish(), files: files, apps: loaded.map(\.description))
        return (loaded.map(\.app), write(record, as: key.fileName))
    }

    /// Writes the record atomically (a temporary file renamed into place), then removes the
    /// oldest records past ``keptRecords``. Never throws: a cache that cannot be written is
    /// only slower.
    private func write(_ record: LoadRecord, as name: String) -> String {
        let target = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(record.encoded).write(to: target, options: .atomic)
        } catch {
            return "no record written to \(folder.path) (it cannot be created or written)"
        }
        prune()
        return Self.writtenPrefix + target.path
    }

    private func prune() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let records = names.filter { $0.hasSuffix(Self.recordSuffix) && !$0.hasPrefix(".") }.compactMap {
            name -> (path: String, status: FileStatus)? in
            let path = folder.appendingPathComponent(name).path
            return FileStatus(path: path, followingSymlinks: false).map { (path, $0) }
        }
        guard records.count > Self.keptRecords else { return }
        let oldestFirst = records.sorted {
            ($0.status.modifiedSeconds, $0.status.modifiedNanoseconds) < (
                $1.status.modifiedSeconds, $1.status.modifiedNanoseconds
            )
        }
        for record in oldestFirst.prefix(records.count - Self.keptRecords) {
            try? FileManager.default.removeItem(atPath: record.path)
        }
    }

    private enum ReadRecord {
        case missing
        case unusable
        case record(LoadRecord)
    }

    private static func readRecord(at path: String) -> ReadRecord {
        guard let status = FileStatus(path: path) else { return .missing }
        guard status.kind == .regular, status.size <= LoadRecord.maxBytes,
            let data = FileManager.default.contents(atPath: path),
            let record = LoadRecord(decoding: [UInt8](data))
        else { return .unusable }
        return .record(record)
    }
}
