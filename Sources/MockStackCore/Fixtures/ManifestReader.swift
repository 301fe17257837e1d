/// Typed, diagnosing access to one parsed manifest: every accessor records a positioned
/// diagnostic instead of throwing, so one `validate` run reports every mistake at once.
public final class ManifestReader {
    /// The app folder, relative to the fixtures root (`example`).
    public let folder: String
    /// The manifest's display path (`Fixtures/example/app.json`).
    public let file: String
    public let document: JSONParser.Document
    public let source: any FixtureSource
    public private(set) var diagnostics: [FixtureDiagnostic] = []
    /// Values already looked up, by pointer (the document never changes).
    private var resolved: [String: JSONValue?] = [:]

    init(folder: String, file: String, document: JSONParser.Document, source: any FixtureSource) {
        self.folder = folder
        self.file = file
        self.document = document
        self.source = source
    }

    public var root: JSONValue { document.root }

    /// Records a mistake at `pointer` in the manifest.
    public func report(_ message: String, at pointer: String) {
        diagnostics.append(
            FixtureDiagnostic(file: file, position: document.position(of: pointer), pointer: pointer, message: message))
    }

    /// Records a mistake found in another file of the app.
    public func report(_ diagnostic: FixtureDiagnostic) {
        diagnostics.append(diagnostic)
    }

    /// The value at `pointer` ("/routes/0/path").
    public func value(at pointer: String) -> JSONValue? {
        if pointer.isEmpty { return root }
        if let cached = resolved[pointer] { return cached }
        // One step from the parent, which is looked up (and remembered) the same way: kinds read
        // many siblings under one operation, so each lookup costs a single step.
        // Split over the UTF-8 view: stepping `String` indices would segment graphemes.
        let utf8 = pointer.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let parent = String(Substring(utf8[..<slash]))
        let key = JSONPointer.unescaped(Substring(utf8[utf8.index(after: slash)...]))
        let value = self.value(at: parent).flatMap { JSONPointer.member(key, of: $0) }
        resolved[pointer] = .some(value)
        return value
    }

    /// A string member; reports a wrong type, or absence when `required`.
    public func string(_ pointer: String, required: Bool = false) -> String? {
        switch value(at: pointer) {
        case .string(let s): return s
        case nil:
            if required { report("required string is missing", at: pointer) }
            return nil
        case let other?:
            report(JSONReadError.expected("a string", found: other), at: pointer)
            return nil
        }
    }

    /// An integer member within `range`.
    public func int(_ pointer: String, in range: ClosedRange<Int>) -> Int? {
        guard let found = value(at: pointer) else { return nil }
        guard let int = found.intValue else {
            report(JSONReadError.expected("an integer", found: found), at: pointer)
            return nil
        }
        guard range.contains(int) else {
            report("\(int) is out of range \(range.lowerBound)...\(range.upperBound)", at: pointer)
            return nil
        }
        return int
    }

    /// An array member (empty when absent).
    public func array(_ pointer: String) -> [JSONValue] {
        switch value(at: pointer) {
        case .array(let a): return a
        case nil: return []
        case let other?:
            report(JSONReadError.expected("an array", found: other), at: pointer)
            return []
        }
    }

    /// A `{"Name": "value"}` object of strings (empty when absent).
    public func stringMap(_ pointer: String) -> [(String, String)] {
        switch value(at: pointer) {
        case nil: return []
        case .object(let object):
            return object.compactMap { member in
                guard case .string(let s) = member.value else {
                    report(
                        JSONReadError.expected("a string", found: member.value),
                        at: JSONPointer.appending(member.key, to: pointer))
                    return nil
                }
                return (member.key, s)
            }
        case let other?:
            report(JSONReadError.expected("an object", found: other), at: pointer)
            return []
        }
    }

    /// Whether `pointer` holds an object of settings (`"serverEvents": {…}`), reporting any other
    /// value, and any key of the object not in `allowed`. False when absent or not an object.
    public func settingsObject(at pointer: String, allowed: Set<String>) -> Bool {
        guard let value = value(at: pointer) else { return false }
        guard value.objectValue != nil else {
            report(
                "expected an object (\(allowed.sorted().joined(separator: ", "))), found \(value.typeName)", at: pointer
            )
            return false
        }
        rejectUnknownKeys(at: pointer, allowed: allowed)
        return true
    }

    /// Reports every member of the object at `pointer` whose key is not in `allowed`.
    public func rejectUnknownKeys(at pointer: String, allowed: Set<String>) {
        guard case .object(let object)? = value(at: pointer) else { return }
        for key in object.keys where !allowed.contains(key) {
            report(
                "unknown key '\(key)' (expected one of: \(allowed.sorted().joined(separator: ", ")))",
                at: JSONPointer.appending(key, to: pointer))
        }
    }

    /// Reads a file of this app named at `pointer`. The name must stay inside the app folder
    /// (``FixturePath``); the source refuses symlinks that lead out of the fixtures folder.
    public func appFile(named name: String, at pointer: String) -> (path: String, bytes: [UInt8])? {
        if let problem = FixturePath.problem(in: name) {
            report("'\(name)' \(problem.replacing("the folder", with: "the app folder"))", at: pointer)
            return nil
        }
        let path = folder + "/" + name
        guard source.fileExists(path) else {
            report("no file '\(name)' in \(source.displayPath(folder))", at: pointer)
            return nil
        }
        do {
            return (path, try source.read(path))
        } catch {
            report("cannot read '\(name)': \(error)", at: pointer)
            return nil
        }
    }

    /// The display path of a file of this app.
    public func displayPath(_ path: String) -> String { source.displayPath(path) }
}
