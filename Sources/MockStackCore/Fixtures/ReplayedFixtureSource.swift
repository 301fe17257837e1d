/// A source that answers from exchanges asked of another source earlier (a cached load's
/// replay): a file changed on disk since then cannot slip in unchecked. A question that was not
/// asked then finds nothing. Diagnostics still name files as `display` does.
public struct ReplayedFixtureSource: FixtureSource {
    private let folders: [String]?
    private let exists: [String: Bool]
    private let contents: [String: [UInt8]]
    private let display: any FixtureSource

    /// - Parameters:
    ///   - exchanges: the answers; a later answer to the same question wins.
    ///   - display: names the root and files in diagnostics (the source they were asked of).
    public init(_ exchanges: [FixtureExchange], display: any FixtureSource) {
        var folders: [String]?
        var exists: [String: Bool] = [:]
        var contents: [String: [UInt8]] = [:]
        for exchange in exchanges {
            switch (exchange.question, exchange.answer) {
            case (.appFolders, .folders(let listed)): folders = listed
            case (.fileExists(let path), .exists(let found)): exists[path] = found
            case (.read(let path), .bytes(let bytes)): contents[path] = bytes
            default: continue
            }
        }
        self.folders = folders
        self.exists = exists
        self.contents = contents
        self.display = display
    }

    public var displayRoot: String { display.displayRoot }

    public func displayPath(_ path: String) -> String { display.displayPath(path) }

    public func appFolders() throws -> [String] {
        guard let folders else { throw FixtureReadError(path: displayRoot, reason: "its app folders were not listed at start-up") }
        return folders
    }

    public func fileExists(_ path: String) -> Bool { exists[path] ?? false }

    public func read(_ path: String) throws -> [UInt8] {
        guard let bytes = contents[path] else { throw FixtureReadError(path: displayPath(path), reason: "was not read at start-up") }
        return bytes
    }
}
