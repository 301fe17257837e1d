import MockStackCore

/// What a load cache hit's apps are built from, after the ready line: the fixtures on disk,
/// each file's bytes checked against the digest the record keeps. A file edited since the
/// start-up's check is refused, never loaded unchecked: its app answers 500 in its own format
/// and the log names the file (``DeferredApp``). A question the recorded load did not ask finds
/// nothing; folder lists and `fileExists` answers are the recorded ones.
struct CheckedFixtureSource: FixtureSource {
    private let base: any FixtureSource
    private let folders: [String]?
    private let exists: [String: Bool]
    private let digests: [String: [UInt8]]

    static let changedReason = "changed after start-up, so it was not loaded: restart mockstack to load it (or serve with --watch, which reloads edited fixtures)"

    init(_ base: any FixtureSource, record: LoadRecord) {
        var folders: [String]?
        var exists: [String: Bool] = [:]
        var digests: [String: [UInt8]] = [:]
        for entry in record.entries {
            switch entry {
            case .folders(let listed, _): folders = listed
            case .exists(let path, let answer): exists[path] = answer
            case .file(let path, _, let digest): digests[path] = digest
            case .unreadable: continue
            }
        }
        self.base = base
        self.folders = folders
        self.exists = exists
        self.digests = digests
    }

    var displayRoot: String { base.displayRoot }

    func displayPath(_ path: String) -> String { base.displayPath(path) }

    func appFolders() throws -> [String] {
        guard let folders else { throw FixtureReadError(path: displayRoot, reason: "its app folders were not listed at start-up") }
        return folders
    }

    func fileExists(_ path: String) -> Bool { exists[path] ?? false }

    func read(_ path: String) throws -> [UInt8] {
        guard let digest = digests[path] else { throw FixtureReadError(path: displayPath(path), reason: "was not read at start-up") }
        let bytes = try base.read(path)
        guard FixtureDigest.of(bytes) == digest else { throw FixtureReadError(path: displayPath(path), reason: Self.changedReason) }
        return bytes
    }
}
