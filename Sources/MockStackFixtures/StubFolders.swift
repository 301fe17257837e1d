import Dispatch
package import Logging
package import MockStackControl
package import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// `serve --stubs DIR`: the stubs kept in files, read from every `*.json` below each folder
/// (hidden names left out, in path order, the folders in the order given) and checked before the
/// ready line, as fixtures are (README.md, Stubs kept in files). With `--watch` they are looked at
/// a few times a second and loaded again when a file changes; a broken edit is reported and the
/// last good set keeps answering.
package final class StubFolders: Sendable {
    private let folders: [URL]
    private let stubs: StubStore
    private let logger: Logger
    private let printed = Mutex<[FixtureTree.File]>([])
    private let stopSignal = DispatchSemaphore(value: 0)
    /// Held for a whole reload: the poller and ``reloadIfChanged()`` callers take turns, so a
    /// caller returns once an edit the poller had begun on is in.
    private let reloading = Mutex(())

    /// A stub file larger than this is refused: a definition is kilobytes.
    static let fileByteLimit = 16 * 1024 * 1024

    package init(_ folders: [URL], stubs: StubStore, logger: Logger) {
        self.folders = folders
        self.stubs = stubs
        self.logger = logger
    }

    /// Reads and checks every file, then makes them the server's file stubs; nothing changes
    /// when any is wrong.
    package func load() throws(FixtureErrors) {
        let found = files()
        let definitions = try stubs.readFiles(try read(found))
        stubs.installFileStubs(definitions)
        printed.withLock { $0 = found }
    }

    /// Looks every `intervalMilliseconds`, on a queue of its own, until ``stop()``.
    package func watch(intervalMilliseconds: Int = 250) {
        WatchLoop.start(
            label: "mockstack.stub-watcher", intervalMilliseconds: intervalMilliseconds, stop: stopSignal, owner: self
        ) { $0.reloadIfChanged() }
    }

    package func stop() { stopSignal.signal() }

    /// Loads the files again if any changed since the last look.
    package func reloadIfChanged() {
        reloading.withLock { _ in
            let now = files()
            // Remembered even when the load fails: the next edit, not the next poll, retries.
            let changed = printed.withLock { last in
                defer { last = now }
                return last != now
            }
            guard changed else { return }
            do throws(FixtureErrors) {
                stubs.installFileStubs(try stubs.readFiles(try read(now)))
                logger.notice("reloaded the stubs in \(folders.map(\.relativePath).joined(separator: ", "))")
            } catch {
                for problem in error.diagnostics { logger.error("stub reload refused: \(problem)") }
                logger.error("kept the last good stubs (\(error.diagnostics.count) problem(s))")
            }
        }
    }

    /// The `*.json` files of every folder, with their status (the watch's fingerprint).
    private func files() -> [FixtureTree.File] {
        folders.flatMap { folder in
            FixtureTree(root: folder).files(below: folder.path).files.filter { $0.path.hasSuffix(".json") }
        }
    }

    /// Each file's bytes, named as the user wrote the folder (`stubs/login.json`).
    private func read(_ files: [FixtureTree.File]) throws(FixtureErrors) -> [(name: String, bytes: [UInt8])] {
        var read: [(name: String, bytes: [UInt8])] = []
        var problems: [FixtureDiagnostic] = []
        for file in files {
            let name = displayName(file.path)
            guard file.status.size <= Self.fileByteLimit else {
                problems.append(
                    FixtureDiagnostic(
                        file: name, position: .start, pointer: "",
                        message: "larger than \(Self.fileByteLimit) bytes, the most a stub file may hold"))
                continue
            }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                problems.append(FixtureDiagnostic(file: name, position: .start, pointer: "", message: "cannot be read"))
                continue
            }
            read.append((name, [UInt8](data)))
        }
        guard problems.isEmpty else { throw FixtureErrors(problems) }
        return read
    }

    private func displayName(_ path: String) -> String {
        for folder in folders where path.hasPrefix(folder.path + "/") {
            return folder.relativePath + String(path.dropFirst(folder.path.count))
        }
        return path
    }
}
