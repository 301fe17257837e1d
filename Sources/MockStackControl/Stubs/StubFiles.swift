package import MockStackCore
import MockStackWire

/// The stubs `serve --stubs DIR` keeps in files (``StubFileFormat``). Reading checks every
/// definition as `POST stubs` would, and reports each mistake as the fixtures' are, at its line
/// and column: `stubs/login.json:4:15: /0/answer/status: expected a status from 200 to 599`.
package enum StubFiles {
    /// One definition read from a file, and where it came from (`login.json`, or `login.json#/2`
    /// for one of a list).
    package struct Definition: Sendable {
        package var origin: String
        package var json: JSONValue
    }

    /// The definitions in `files` (display name → bytes, in load order), or every mistake.
    /// - Parameter check: compiles a definition as the server would, returning its problem.
    static func read(
        _ files: [(name: String, bytes: [UInt8])], check: (JSONValue) -> Stub.Problem?
    ) throws(FixtureErrors) -> [Definition] {
        var definitions: [Definition] = []
        var problems: [FixtureDiagnostic] = []
        for (name, bytes) in files {
            let document: JSONParser.Document
            do {
                document = try JSONParser().parse(bytes, recordPositions: true)
            } catch {
                problems.append(
                    FixtureDiagnostic(
                        file: name, position: error.position, pointer: error.pointer,
                        message: "invalid JSON: \(error.message)"))
                continue
            }
            let found = StubFileFormat.definitions(in: document.root)
            if found.isEmpty {
                problems.append(
                    FixtureDiagnostic(
                        file: name, position: .start, pointer: "",
                        message: "expected a stub definition, a list of them, or a {\"stubs\": […]} listing"))
            }
            for (pointer, json) in found {
                if let problem = check(json) {
                    let at = pointer + Self.pointer(of: problem.field, in: json)
                    problems.append(
                        FixtureDiagnostic(
                            file: name, position: document.position(of: at), pointer: at, message: problem.message))
                    continue
                }
                definitions.append(Definition(origin: found.count == 1 ? name : name + "#" + pointer, json: json))
            }
        }
        guard problems.isEmpty else { throw FixtureErrors(problems) }
        return definitions
    }

    /// A problem's dotted field (`answer.headers.X-Id`) as a JSON pointer into the definition,
    /// following its keys, which may hold dots themselves; as far as the definition has them.
    static func pointer(of field: String, in json: JSONValue) -> String {
        var pointer = ""
        var rest = Substring(field)
        var value = json
        while !rest.isEmpty, case .object(let object) = value {
            // The longest key that the rest of the field starts with, whole.
            let key = object.keys.filter { rest == $0 || rest.hasPrefix($0 + ".") }.max { $0.count < $1.count }
            guard let key else { break }
            pointer = JSONPointer.appending(key, to: pointer)
            rest = rest.dropFirst(min(rest.count, key.count + 1))
            value = object[key] ?? .null
        }
        return pointer
    }
}
