import MockStackCore
import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack stubs export --url URL --out DIR`: a running server's stubs written as files that
/// `serve --stubs DIR` loads back (README.md, Stubs kept in files): one definition a file, named
/// in the server's order so that the newest still wins among stubs of equal priority.
struct Stubs: Subcommand {
    static let name = "stubs"
    static let abstract = "Write a running server's stubs as files that serve --stubs loads back."
    static let discussion = """
        A URL with a session's prefix (http://127.0.0.1:8080/__session/ID) exports that session's stubs.
        """

    var action = ""
    var url = ""
    var out = ""
    var replace = false
    var adminToken: String?

    static let actions = ["export"]

    static let arguments: CommandArguments<Self>? = .one(
        \.action, valueName: "action", help: "export: write the stubs of the server at --url into --out.")

    static let options: [CommandOption<Self>] = [
        .value("url", \.url, required: true, help: "The server's URL, e.g. http://127.0.0.1:8080."),
        .value("out", \.out, valueName: "dir", required: true, help: "The folder to write (made if missing)."),
        .flag("replace", \.replace, help: "Remove the folder's *.json files first, as a fresh export."),
        .value(
            "admin-token", \.adminToken, valueName: "token",
            help: "The control plane's token, when it needs one (env MOCKSTACK_ADMIN_TOKEN)."),
    ]

    func run() throws {
        guard Self.actions.contains(action) else {
            let hint = DidYouMean.hint(for: action, among: Self.actions, plural: "actions")
            printError("mockstack: unknown action '\(action)': \(hint) (see 'mockstack stubs --help')")
            throw ExitStatus(2)
        }
        let definitions = try fetchedDefinitions()
        let folder = URL(fileURLWithPath: out)
        try prepare(folder)
        for (index, definition) in definitions.enumerated() {
            let name = StubFileFormat.fileName(position: index + 1, count: definitions.count, id: definition.id)
            do {
                try Data(StubFileFormat.contents(definition.json)).write(to: folder.appendingPathComponent(name))
            } catch {
                printError("mockstack: cannot write \(out)/\(name): \(error)")
                throw ExitStatus(1)
            }
        }
        print("wrote \(definitions.count) stub\(definitions.count == 1 ? "" : "s") to \(out)")
    }

    /// The stubs `GET …/__mockstack/stubs` lists: each one's id and definition.
    private func fetchedDefinitions() throws -> [(id: String, json: JSONValue)] {
        guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host else {
            printError("mockstack: --url '\(url)' is not an http:// URL")
            throw ExitStatus(2)
        }
        let base = parsed.path.hasSuffix("/") ? String(parsed.path.dropLast()) : parsed.path
        let token = adminToken ?? EnvironmentVariable.value("MOCKSTACK_ADMIN_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
        let headers = token.map { [(AdminToken.header, $0)] } ?? []
        let reply: HTTPProbe.Reply
        switch HTTPProbe.fetch(host: host, port: parsed.port ?? 80, path: base + "/__mockstack/stubs", headers: headers)
        {
        case .success(let answer): reply = answer
        case .failure(let error):
            printError("mockstack: \(error.message)")
            throw ExitStatus(1)
        }
        let body = try? JSONParser().parse(reply.body).root
        guard reply.status == 200, case .array(let stubs)? = body?["stubs"] else {
            let said = body?["message"]?.stringValue.map { ": \($0)" } ?? ""
            printError("mockstack: \(url)/__mockstack/stubs answered \(reply.status)\(said)")
            throw ExitStatus(1)
        }
        return stubs.compactMap { stub in
            guard let id = stub["id"]?.stringValue, let definition = stub["definition"] else { return nil }
            return (id, definition)
        }
    }

    /// Makes the folder; with `--replace`, empties it of `*.json` files; without, refuses one
    /// that holds some (they would load beside the new ones).
    private func prepare(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            printError("mockstack: cannot make \(out): \(error)")
            throw ExitStatus(1)
        }
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        guard !existing.isEmpty else { return }
        guard replace else {
            printError(
                """
                mockstack: \(out) already holds stub files (\(existing.prefix(3).joined(separator: ", "))\
                \(existing.count > 3 ? ", …" : "")): they would load beside these; pass --replace or choose \
                another folder
                """)
            throw ExitStatus(2)
        }
        for name in existing { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }
}
