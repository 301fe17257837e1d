public import MockStackJSON

/// How stubs are kept in files, for `serve --stubs DIR`, `mockstack stubs export` and the
/// testing product's `loadStubs(from:)`/`exportStubs(to:)` alike (README.md, Stubs kept in
/// files): a `*.json` file holds one stub definition, a list of them, or what
/// `GET /__mockstack/stubs` lists (`{"stubs": [{"id", …, "definition": {…}}]}`), so that a
/// listing, or a snapshot's answer, saved as it is loads back.
public enum StubFileFormat {
    /// The definitions in a file's JSON, each with its JSON pointer in the file; none when
    /// the file holds neither an object nor a list.
    public static func definitions(in root: JSONValue) -> [(pointer: String, json: JSONValue)] {
        // A listing's entry holds its definition under `definition`, beside the id it was given.
        func definition(_ value: JSONValue, at pointer: String) -> (pointer: String, json: JSONValue) {
            if case .object(let object) = value, let inner = object["definition"], object["id"] != nil {
                return (pointer + "/definition", inner)
            }
            return (pointer, value)
        }
        switch root {
        case .array(let items):
            return items.enumerated().map { definition($1, at: "/\($0)") }
        case .object(let object):
            // A listing, or a snapshot's answer beside its `skipped` (no definition has `stubs`).
            if case .array(let items)? = object["stubs"] {
                return items.enumerated().map { definition($1, at: "/stubs/\($0)") }
            }
            return [definition(root, at: "")]
        default:
            return []
        }
    }

    /// An exported stub's file name: its place among `count` (so that loading, in name order,
    /// keeps the server's order, and the newest still wins among equal priorities) and its id:
    /// `003-stub-7.json`.
    public static func fileName(position: Int, count: Int, id: String) -> String {
        let width = max(3, String(count).count)
        return String(zeroPadded: position, width: width) + "-" + id + ".json"
    }

    /// An exported stub's file: the definition written for people to read and edit.
    public static func contents(_ definition: JSONValue) -> [UInt8] { PrettyJSON.bytes(definition) }
}
