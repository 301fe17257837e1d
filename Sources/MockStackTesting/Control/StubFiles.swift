public import Foundation
import MockStackJSON
import MockStackWire

/// A stub file that cannot be loaded: not JSON, no definitions, or one the server refuses.
public struct StubFileError: Error, Sendable, CustomStringConvertible {
    /// The file, as found under the folder given.
    public var file: String
    /// What is wrong (the server's 400 names the field: `answer.status: expected a status from 200 to 599`).
    public var message: String
    /// `file: message`.
    public var description: String { "\(file): \(message)" }
}

extension MockStackControlling {
    /// Adds the stubs kept in files, as `serve --stubs` loads them (README.md, Stubs kept in
    /// files): every `*.json` below `location` (hidden names left out, in path order), or
    /// `location` itself when it is a file. Each holds a definition, a list of them, or a
    /// listing saved from `GET /__mockstack/stubs`. Works in every mode, attached servers and
    /// sessions included; the stubs are this scope's runtime stubs (a reset removes them).
    /// - Returns: a handle for each stub, in load order.
    /// - Throws: ``StubFileError`` for the first file that cannot be loaded; the stubs of the
    ///   files before it stay added.
    @discardableResult
    public func loadStubs(from location: URL) async throws -> [MockStubHandle] {
        var handles: [MockStubHandle] = []
        for file in Self.stubFiles(at: location) {
            let name =
                file.path.hasPrefix(location.path + "/")
                ? String(file.path.dropFirst(location.path.count + 1)) : file.lastPathComponent
            let root: JSONValue
            do {
                root = try JSONParser().parse(Array(try Data(contentsOf: file))).root
            } catch {
                throw StubFileError(file: name, message: "\(error)")
            }
            let definitions = StubFileFormat.definitions(in: root)
            guard !definitions.isEmpty else {
                throw StubFileError(
                    file: name, message: "expected a stub definition, a list of them, or a {\"stubs\": […]} listing")
            }
            for definition in definitions {
                do {
                    let answer = try await call("POST", "stubs", body: definition.json)
                    handles.append(
                        MockStubHandle(
                            id: answer["id"]?.stringValue ?? "",
                            control: ControlEndpoint(controlBase: controlBase, adminToken: adminToken)))
                } catch let refused as MockStackControlError {
                    throw StubFileError(
                        file: name + (definitions.count > 1 ? "#" + definition.pointer : ""), message: refused.message)
                }
            }
        }
        return handles
    }

    /// Writes this scope's stubs as files that `serve --stubs` and ``loadStubs(from:)`` load
    /// back, one definition a file named in the server's order (`001-stub-1.json`), as
    /// `mockstack stubs export` does.
    /// - Parameter replacing: remove the folder's `*.json` files first; without it, a folder
    ///   that holds some is refused (they would load beside the new ones).
    /// - Returns: the files written.
    @discardableResult
    public func exportStubs(to folder: URL, replacing: Bool = false) async throws -> [URL] {
        let stubs = try await call("GET", "stubs")["stubs"]?.arrayValue ?? []
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        if !existing.isEmpty {
            guard replacing else {
                throw StubFileError(
                    file: folder.path,
                    message:
                        "already holds stub files (\(existing.sorted().joined(separator: ", "))); pass replacing: true")
            }
            for name in existing { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
        var written: [URL] = []
        for (index, stub) in stubs.enumerated() {
            guard let id = stub["id"]?.stringValue, let definition = stub["definition"] else { continue }
            let file = folder.appendingPathComponent(
                StubFileFormat.fileName(position: index + 1, count: stubs.count, id: id))
            try Data(StubFileFormat.contents(definition)).write(to: file)
            written.append(file)
        }
        return written
    }

    /// The `*.json` files below a folder, in path order, or the file itself.
    private static func stubFiles(at location: URL) -> [URL] {
        guard (try? location.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true else { return [location] }
        let found = FileManager.default.enumerator(
            at: location, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        return (found?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "json" }
            .map { $0.standardizedFileURL }.sorted { $0.path < $1.path }
    }
}
