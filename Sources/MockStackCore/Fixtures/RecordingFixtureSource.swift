import Synchronization

/// Another source whose every question and answer is written down, in the order asked: what
/// a load depended on, for the load cache to digest. Answers are passed through unchanged.
public final class RecordingFixtureSource: FixtureSource {
    public let base: any FixtureSource
    /// The exchanges so far; nil once ``finish()`` has been called.
    private let log = Mutex<[FixtureExchange]?>([])

    public init(_ base: any FixtureSource) {
        self.base = base
    }

    /// Every exchange, oldest first; what is asked after this (an app reading a file at a
    /// request, say) is passed through but no longer written down.
    public func finish() -> [FixtureExchange] {
        log.withLock { log in
            defer { log = nil }
            return log ?? []
        }
    }

    public var displayRoot: String { base.displayRoot }

    public func displayPath(_ path: String) -> String { base.displayPath(path) }

    public func appFolders() throws -> [String] {
        do {
            let folders = try base.appFolders()
            note(.appFolders, .folders(folders))
            return folders
        } catch {
            note(.appFolders, .failed)
            throw error
        }
    }

    public func fileExists(_ path: String) -> Bool {
        let exists = base.fileExists(path)
        note(.fileExists(path), .exists(exists))
        return exists
    }

    public func read(_ path: String) throws -> [UInt8] {
        do {
            let bytes = try base.read(path)
            note(.read(path), .bytes(bytes))
            return bytes
        } catch {
            note(.read(path), .failed)
            throw error
        }
    }

    private func note(_ question: FixtureExchange.Question, _ answer: FixtureExchange.Answer) {
        log.withLock { $0?.append(FixtureExchange(question: question, answer: answer)) }
    }
}
