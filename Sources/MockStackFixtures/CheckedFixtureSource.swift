import MockStackCore
import Synchronization

/// What a load cache hit's apps are built from, after the ready line: the fixtures on disk,
/// each file's bytes checked against the digest the record keeps. A file edited since the
/// start-up's check is refused, never loaded unchecked: its app answers 500 in its own format
/// and the log names the file (``UnavailableApp``). A question the recorded load did not ask
/// finds nothing; folder lists and `fileExists` answers are the recorded ones.
struct CheckedFixtureSource: FixtureSource {
    private let base: any FixtureSource
    private let index: Index

    static let changedReason =
        """
        changed after start-up, so it was not loaded: restart mockstack to load it (or serve with --watch, which \
        reloads edited fixtures)
        """

    init(_ base: any FixtureSource, record: LoadRecord) {
        self.base = base
        index = Index(record)
    }

    /// The record's answers by path, made at the first build's first question, not on the way
    /// to the ready line, which a hit keeps short. Builds may run at once
    /// (the background thread's and a request's), hence the lock.
    private final class Index: Sendable {
        struct Answers {
            var folders: [String]?
            var exists: [String: Bool] = [:]
            var digests: [String: [UInt8]] = [:]
        }

        private let record: LoadRecord
        private let made = Mutex<Answers?>(nil)

        init(_ record: LoadRecord) {
            self.record = record
        }

        var answers: Answers {
            made.withLock { made in
                if let made { return made }
                var answers = Answers()
                for entry in record.entries {
                    switch entry {
                    case .folders(let listed, _): answers.folders = listed
                    case .exists(let path, let answer): answers.exists[path] = answer
                    case .file(let path, _, let digest): answers.digests[path] = digest
                    case .unreadable: continue
                    }
                }
                made = answers
                return answers
            }
        }
    }

    var displayRoot: String { base.displayRoot }

    func displayPath(_ path: String) -> String { base.displayPath(path) }

    func appFolders() throws -> [String] {
        guard let folders = index.answers.folders else {
            throw FixtureReadError(path: displayRoot, reason: "its app folders were not listed at start-up")
        }
        return folders
    }

    func fileExists(_ path: String) -> Bool { index.answers.exists[path] ?? false }

    func read(_ path: String) throws -> [UInt8] {
        guard let digest = index.answers.digests[path] else {
            throw FixtureReadError(path: displayPath(path), reason: "was not read at start-up")
        }
        let bytes = try base.read(path)
        guard FixtureDigest.of(bytes) == digest else {
            throw FixtureReadError(path: displayPath(path), reason: Self.changedReason)
        }
        return bytes
    }
}
