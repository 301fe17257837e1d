/// Read access to a fixtures tree. The façade implements it over the file system; tests use an
/// in-memory tree. Paths are relative to the root and use `/`.
public protocol FixtureSource: Sendable {
    /// How to name the root in diagnostics (`Fixtures`, `/fixtures`).
    var displayRoot: String { get }
    /// The immediate sub-folders of the root, sorted.
    func appFolders() throws -> [String]
    /// Whether a regular file exists at `path`.
    func fileExists(_ path: String) -> Bool
    /// The bytes of the file at `path`.
    func read(_ path: String) throws -> [UInt8]
    /// How diagnostics name the file at `path` (`Fixtures/test/app.json`).
    func displayPath(_ path: String) -> String
}

extension FixtureSource {
    public func displayPath(_ path: String) -> String { displayRoot + "/" + path }
}

/// A fixtures tree held in memory, for tests and embedding.
public struct InMemoryFixtureSource: FixtureSource {
    public var files: [String: [UInt8]]
    public var displayRoot: String

    public init(files: [String: String], displayRoot: String = "Fixtures") {
        self.files = files.mapValues { Array($0.utf8) }
        self.displayRoot = displayRoot
    }

    public func appFolders() throws -> [String] {
        Set(
            files.keys.compactMap { $0.split(separator: "/").first.map(String.init) }
                .filter { folder in files.keys.contains { $0.hasPrefix(folder + "/") } }
        ).sorted()
    }

    public func fileExists(_ path: String) -> Bool { files[path] != nil }

    public func read(_ path: String) throws -> [UInt8] {
        guard let bytes = files[path] else { throw FixtureReadError(path: path, reason: "no such file") }
        return bytes
    }
}

/// Another source narrowed to some of its app folders (`serve --apps test,ai`): only those
/// are listed, so only those load.
public struct SelectedFixtureSource: FixtureSource {
    public let base: any FixtureSource
    public let folders: [String]

    /// Fails, naming the folders there are, when one of `folders` is not an app folder of `base`.
    public init(_ base: any FixtureSource, folders: [String]) throws(FixtureErrors) {
        let available = (try? base.appFolders()) ?? []
        let unknown = folders.filter { !available.contains($0) }
        guard unknown.isEmpty else {
            throw FixtureErrors([
                FixtureDiagnostic(
                    file: base.displayRoot, position: .start, pointer: "",
                    message: Self.unknownFolders(unknown, among: available))
            ])
        }
        self.base = base
        self.folders = folders
    }

    /// `no app folder named 'tset': did you mean 'test'? (there are: …)`; the hint only for a
    /// single name with names near it.
    static func unknownFolders(_ unknown: [String], among available: [String]) -> String {
        let named = "no app folder named \(unknown.map { "'\($0)'" }.joined(separator: ", "))"
        let hint = unknown.count == 1 ? DidYouMean.hint(for: unknown[0], among: available, plural: "apps") : ""
        return named + (hint.hasPrefix("did you mean") ? ": " + hint : "")
            + " (there are: \(available.joined(separator: ", ")))"
    }

    public var displayRoot: String { base.displayRoot }

    public func appFolders() throws -> [String] {
        try base.appFolders().filter(folders.contains)
    }

    public func fileExists(_ path: String) -> Bool { base.fileExists(path) }

    public func read(_ path: String) throws -> [UInt8] { try base.read(path) }

    public func displayPath(_ path: String) -> String { base.displayPath(path) }
}

/// A fixture file could not be read.
public struct FixtureReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
