import MockStackCore
import MockStackTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mockstack stubs export|snapshot --url URL --out DIR`: a running server's stubs, or a
/// snapshot of its journal, written as files that `serve --stubs DIR` loads back (README.md,
/// Stubs kept in files): one definition a file, named in order so that the newest still wins
/// among stubs of equal priority.
struct Stubs: Subcommand {
    static let name = "stubs"
    static let abstract = "Write a running server's stubs, or a snapshot of its journal, as files for serve --stubs."
    static let discussion = """
        export writes the stubs GET /__mockstack/stubs lists; snapshot turns the journal's requests (the newest \
        --limit that --match matches) into stubs that answer them as they were answered (POST \
        /__mockstack/stubs/snapshot), leaving the server's stubs as they are unless --persist. A URL with a \
        session's prefix (http://127.0.0.1:8080/__session/ID) works on that session.
        """

    var action = ""
    var url = ""
    var out = ""
    var replace = false
    var adminToken: String?
    var match: String?
    var limit: Int?
    var captureHeaders: [String] = []
    var noScenarios = false
    var persist = false

    static let actions = ["export", "snapshot"]

    static let arguments: CommandArguments<Self>? = .one(
        \.action, valueName: "action", help: "export (the server's stubs) or snapshot (its journal, as stubs).")

    static let options: [CommandOption<Self>] = [
        .value("url", \.url, required: true, help: "The server's URL, e.g. http://127.0.0.1:8080."),
        .value("out", \.out, valueName: "dir", required: true, help: "The folder to write (made if missing)."),
        .flag("replace", \.replace, help: "Remove the folder's *.json files first, as a fresh export."),
        .value(
            "admin-token", \.adminToken, valueName: "token",
            help: "The control plane's token, when it needs one (env MOCKSTACK_ADMIN_TOKEN)."),
        .value(
            "match", \.match, valueName: "json",
            help:
                "snapshot: the requests to take, as a request pattern ('{\"pathPrefix\": \"/test/\"}'); all by default."
        ),
        .value("limit", \.limit, valueName: "n", help: "snapshot: the newest N requests the pattern matches at most."),
        .repeating(
            "capture-header", \.captureHeaders, valueName: "name",
            help: "snapshot: a request header the stubs also match (repeatable)."),
        .flag(
            "no-scenarios", \.noScenarios,
            help: "snapshot: keep the first answer of a request made several times, not each in turn."),
        .flag("persist", \.persist, help: "snapshot: also add the stubs to the server."),
    ]

    func run() throws {
        guard Self.actions.contains(action) else {
            let hint = DidYouMean.hint(for: action, among: Self.actions, plural: "actions")
            printError("mockstack: unknown action '\(action)': \(hint) (see 'mockstack stubs --help')")
            throw ExitStatus(2)
        }
        let (host, port, base) = try server()
        // The folder first: a refused one must not follow a snapshot that added stubs.
        let folder = URL(fileURLWithPath: out)
        try prepare(folder)
        let definitions: [(id: String, json: JSONValue)]
        if action == "export" {
            let listed = try call("GET", host, port, base + "/__mockstack/stubs", body: nil)
            definitions = Self.listed(listed["stubs"])
        } else {
            let answer = try call("POST", host, port, base + "/__mockstack/stubs/snapshot", body: try snapshotOptions())
            definitions =
                persist
                ? Self.listed(answer["stubs"])
                : (answer["stubs"]?.arrayValue ?? []).map { (id: "snapshot", json: $0) }
            for skipped in answer["skipped"]?.arrayValue ?? [] {
                let reason = skipped["reason"]?.stringValue ?? ""
                printError("skipped request \(skipped["request"]?.intValue ?? 0): \(reason)")
            }
        }
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

    /// Each listed stub's id and definition.
    private static func listed(_ stubs: JSONValue?) -> [(id: String, json: JSONValue)] {
        (stubs?.arrayValue ?? []).compactMap { stub in
            guard let id = stub["id"]?.stringValue, let definition = stub["definition"] else { return nil }
            return (id, definition)
        }
    }

    /// `POST stubs/snapshot`'s body from the options.
    private func snapshotOptions() throws -> [UInt8] {
        var options: JSONObject = ["persist": .bool(persist), "repeatsAsScenarios": .bool(!noScenarios)]
        if let match {
            guard let pattern = try? JSONParser().parse(Array(match.utf8)).root else {
                printError(
                    "mockstack: --match '\(match)' is not JSON (a request pattern: '{\"path\": \"/test/api/Hello\"}')")
                throw ExitStatus(2)
            }
            options["match"] = pattern
        }
        if let limit { options["limit"] = .number(JSONNumber(limit)) }
        if !captureHeaders.isEmpty { options["captureHeaders"] = .array(captureHeaders.map { .string($0) }) }
        return JSONValue.object(options).encoded()
    }

    /// The server's host, port and base path from `--url`.
    private func server() throws -> (host: String, port: Int, base: String) {
        guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host else {
            printError("mockstack: --url '\(url)' is not an http:// URL")
            throw ExitStatus(2)
        }
        return (host, parsed.port ?? 80, parsed.path.hasSuffix("/") ? String(parsed.path.dropLast()) : parsed.path)
    }

    /// A control-plane call's JSON answer; any other status than 200 ends the command.
    private func call(_ method: String, _ host: String, _ port: Int, _ path: String, body: [UInt8]?) throws -> JSONValue
    {
        let token = EnvironmentVariable.adminToken(given: adminToken)
        let headers = token.map { [(AdminToken.header, $0)] } ?? []
        let reply: HTTPProbe.Reply
        switch HTTPProbe.fetch(method, host: host, port: port, path: path, headers: headers, body: body) {
        case .success(let answer): reply = answer
        case .failure(let error):
            printError("mockstack: \(error.message)")
            throw ExitStatus(1)
        }
        let json = (try? JSONParser().parse(reply.body).root) ?? .null
        guard reply.status == 200 else {
            let said = json["message"]?.stringValue.map { ": \($0)" } ?? ""
            printError("mockstack: \(method) \(path) answered \(reply.status)\(said)")
            throw ExitStatus(1)
        }
        return json
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
