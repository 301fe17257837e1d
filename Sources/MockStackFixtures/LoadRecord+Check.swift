import MockStackCore

extension LoadRecord {
    /// What a record's check at start-up found.
    enum Check: Equatable {
        /// The fixtures are those the record's load checked. `refreshed`: the record with the
        /// signatures seen now, worth writing (some files were read to be sure; the next start
        /// need not), else nil. The counts are of entries trusted by `stat` and read to be sure.
        case hit(refreshed: LoadRecord?, byStatus: Int, byContent: Int)
        /// Why not, in a few words.
        case miss(String)
    }

    /// Asks `source` each question again, as git checks its index: a file whose signature is
    /// the one recorded, and not racy, is trusted unread; any other is read and its digest
    /// compared; a listed folder whose signature moved is listed again; each `fileExists` is
    /// asked again (one `stat`), unless the answer was yes and the file passed its own check.
    /// Any different answer is a miss.
    /// - Parameters:
    ///   - files: where on disk `source` reads its files, for their `stat`.
    ///   - now: the moment the check began, nanoseconds since the epoch (a refreshed record's
    ///     ``madeAt``).
    func check(against source: any FixtureSource, files: FixtureFiles, now: Int64) -> Check {
        var fresh = self
        fresh.madeAt = now
        var changed = false
        var (byStatus, byContent) = (0, 0)
        // Files found as recorded, so present: a "does it exist" answer of yes for one of them
        // needs no `stat` of its own (most of them are asked before the file is read).
        var present = Set<String>(minimumCapacity: entries.count)
        var existence: [(path: String, answer: Bool)] = []
        for (index, entry) in entries.enumerated() {
            switch entry {
            case .folders(let listed, let stamps):
                let current = files.roots.map { FolderStamp(path: $0, signature: .of($0)) }
                if current == stamps, stamps.allSatisfy({ $0.signature.map { !$0.isRacy(madeAt: madeAt) } ?? false }) {
                    byStatus += 1
                    continue
                }
                guard (try? source.appFolders()) == listed else { return .miss("an app folder was added or removed") }
                byContent += 1
                if current != stamps || stamps.contains(where: { becomesTrusted($0.signature, now: now) }) {
                    fresh.entries[index] = .folders(listed: listed, stamps: current)
                    changed = true
                }
            case .exists(let path, let answer):
                existence.append((path, answer))
            case .file(let path, let signature, let digest):
                let current = files.path(of: path).flatMap(FileSignature.of)
                if current != nil { present.insert(path) }
                if let signature, current == signature, !signature.isRacy(madeAt: madeAt) {
                    byStatus += 1
                    continue
                }
                guard let bytes = try? source.read(path) else {
                    return .miss("\(source.displayPath(path)) cannot be read")
                }
                guard FixtureDigest.of(bytes) == digest else { return .miss("\(source.displayPath(path)) changed") }
                byContent += 1
                if current != signature || becomesTrusted(signature, now: now) {
                    fresh.entries[index] = .file(path: path, signature: current, digest: digest)
                    changed = true
                }
            case .unreadable(let path):
                guard (try? source.read(path)) == nil else {
                    return .miss("\(source.displayPath(path)) can be read now")
                }
            }
        }
        for (path, answer) in existence where !(answer && present.contains(path)) {
            guard source.fileExists(path) == answer else {
                return .miss("\(source.displayPath(path)) was \(answer ? "removed" : "added")")
            }
        }
        return .hit(refreshed: changed ? fresh : nil, byStatus: byStatus, byContent: byContent)
    }

    /// Whether a signature racy for this record would not be for one made `now`: rewriting the
    /// record then spares the next start a read.
    private func becomesTrusted(_ signature: FileSignature?, now: Int64) -> Bool {
        guard let signature else { return false }
        return signature.isRacy(madeAt: madeAt) && !signature.isRacy(madeAt: now)
    }
}
