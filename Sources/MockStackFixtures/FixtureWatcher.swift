import Dispatch
package import Logging
package import MockStackControl
package import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `serve --watch`: looks at the fixtures folders a few times a second and, when an app
/// folder's files change, validates the whole tree and swaps the changed apps in at once. A
/// broken edit is reported (`file:line:column: message`) and the last good version keeps
/// serving; unchanged apps keep their state.
///
/// Polling, not inotify: it works the same on macOS, on Linux and on a folder bind-mounted
/// into a Docker container, where file events from the host do not arrive.
package final class FixtureWatcher: Sendable {
    private let folders: FixtureFolders
    /// The app folders to watch, or nil for every app folder (new ones included).
    private let apps: [String]?
    private let loader: AppLoader
    private let registry: AppRegistry
    private let sessions: SessionStore
    private let logger: Logger
    private let state: Mutex<State>
    private let stopSignal = DispatchSemaphore(value: 0)
    /// Held for a whole reload: the poller and ``reloadIfChanged()`` callers take turns.
    private let reloading = Mutex(())

    private struct State {
        var fingerprints: [String: Fingerprint]
        /// Folders changed since the last reload that worked: a failed reload leaves them here,
        /// so fixing one app also brings in what was edited beside it meanwhile.
        var pending: Set<String> = []
        var outcome: ReloadOutcome?
    }

    package init(
        folders: FixtureFolders, apps: [String]?, loader: AppLoader, registry: AppRegistry, sessions: SessionStore,
        logger: Logger
    ) {
        self.folders = folders
        self.apps = apps
        self.loader = loader
        self.registry = registry
        self.sessions = sessions
        self.logger = logger
        let first = Self.fingerprints(folders: folders, apps: apps)
        for folder in first.overLimit {
            logger.warning("--watch looks at the first \(FixtureTree.defaultFileLimit) entries of \(folder) only")
        }
        state = Mutex(State(fingerprints: first.prints, outcome: nil))
    }

    /// Starts looking every `intervalMilliseconds`, on a queue of its own, until ``stop()``.
    package func start(intervalMilliseconds: Int = 250) {
        WatchLoop.start(
            label: "mockstack.fixture-watcher", intervalMilliseconds: intervalMilliseconds, stop: stopSignal,
            owner: self
        ) { $0.reloadIfChanged() }
    }

    package func stop() { stopSignal.signal() }

    package var lastOutcome: ReloadOutcome? { state.withLock { $0.outcome } }

    /// Reloads the app folders whose files changed since the last look, if any did.
    package func reloadIfChanged() {
        reloading.withLock { _ in
            let now = Self.fingerprints(folders: folders, apps: apps).prints
            let changed: [String]? = state.withLock { state in
                let fresh = Set(now.keys).union(state.fingerprints.keys).filter { now[$0] != state.fingerprints[$0] }
                // Remembered even when the reload fails: the next edit, not the next poll, retries.
                state.fingerprints = now
                guard !fresh.isEmpty else { return nil }
                state.pending.formUnion(fresh)
                return state.pending.sorted()
            }
            guard let changed else { return }
            let outcome = reload(changed)
            state.withLock { state in
                state.outcome = outcome
                if outcome.problems.isEmpty { state.pending.removeAll() }
            }
        }
    }

    private func reload(_ changed: [String]) -> ReloadOutcome {
        do {
            // The whole tree is checked (names and mounts must stay unique across apps), but
            // only the changed folders' apps replace what is serving.
            let everything = try folders.source(forOneLoad: true)
            let source = try FixtureFolders.narrowed(everything, to: apps)
            let all = try loader.load(from: source)
            // A folder being created may not have its manifest yet: not an app until it does.
            let folders = (try? source.appFolders()) ?? []
            let present = changed.filter {
                folders.contains($0) && source.fileExists($0 + "/" + AppLoader.manifestName)
            }
            let fresh =
                present.isEmpty ? [] : try loader.load(from: SelectedFixtureSource(everything, folders: present))
            registry.install(all, replacing: fresh)
            // Sessions hold copies of the old apps.
            sessions.removeAll(because: "dropped when the fixtures were reloaded")
            let names = fresh.map(\.name)
            logger.notice(
                "reloaded \(names.isEmpty ? "fixtures (an app folder went away)" : names.joined(separator: ", "))")
            return ReloadOutcome(time: Date(), reloaded: names, problems: [])
        } catch {
            let problems = error.diagnostics.map(\.description)
            for problem in problems { logger.error("reload refused: \(problem)") }
            logger.error(
                "kept the last good fixtures (\(problems.count) problem(s) in \(changed.joined(separator: ", ")))")
            return ReloadOutcome(time: Date(), reloaded: [], problems: problems)
        }
    }

    /// Each app folder's files: their sizes, modification times and identities (device, inode),
    /// as far as ``FixtureTree`` walks (inside its fixtures folder only). An app folder's print
    /// covers that name in every fixtures folder, so one appearing in a later folder, which
    /// replaces the earlier, is a change too. Also names the folders holding more files than the
    /// walk looks at.
    private static func fingerprints(
        folders: FixtureFolders, apps: [String]?
    ) -> (prints: [String: Fingerprint], overLimit: [String]) {
        var result: [String: Fingerprint] = [:]
        var overLimit: [String] = []
        for root in folders.folders {
            let names =
                apps
                ?? ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter {
                    !$0.hasPrefix(".")
                }
            let tree = FixtureTree(root: root)
            for name in names {
                let found = tree.files(below: root.appendingPathComponent(name).path)
                result[name, default: Fingerprint(files: [])].files += found.files
                if found.truncated { overLimit.append(root.appendingPathComponent(name).relativePath) }
            }
        }
        return (result, overLimit.sorted())
    }

    private struct Fingerprint: Equatable, Sendable {
        var files: [FixtureTree.File]
    }
}
