import MockStackCore
import MockStackWire

/// `POST stubs/snapshot` (``StubSnapshot``).
extension ControlPlane {
    static let snapshotKeys = ["match", "limit", "captureHeaders", "repeatsAsScenarios", "persist"]

    /// `POST stubs/snapshot` with `{"match": {…}, "limit": N, "captureHeaders": ["Accept"],
    /// "repeatsAsScenarios": true, "persist": true}` (every key optional): this scope's journal
    /// entries that match (the newest `limit` of them) turned into stubs, added to this scope
    /// unless `persist` is false, and answered as `GET stubs` lists them (definitions alone when
    /// not added), with `skipped` naming the entries left out and why. Saved as it is, the
    /// answer is a stub file that `serve --stubs` loads.
    func snapshot(_ request: HTTPRequest) -> HTTPResponse {
        let options: JSONObject
        do {
            let json = request.body.isEmpty ? .object([:]) : try JSONParser.forRequestBodies().parse(request.body).root
            guard case .object(let object) = json else {
                return PlainError.response(
                    400, "Expected an object of snapshot options (\(Self.snapshotKeys.joined(separator: ", ")))")
            }
            options = object
        } catch {
            return PlainError.response(400, "The snapshot options are not JSON: \(error)")
        }
        let matcher: RequestMatcher
        let limit: Int?
        let captureHeaders: [String]
        let repeatsAsScenarios: Bool
        let persist: Bool
        do throws(WireProblem) {
            try WireProblem.only(options, Self.snapshotKeys, at: "")
            let pattern = try RequestPattern(json: options["match"] ?? .object([:]), field: "match")
            do throws(RequestMatcher.Problem) {
                matcher = try RequestMatcher(pattern, field: "match")
            } catch {
                throw WireProblem(field: error.field, message: error.message)
            }
            limit = try WireProblem.integer(options["limit"], "limit")
            if let limit, limit < 1 { throw WireProblem(field: "limit", message: "expected a whole number above 0") }
            captureHeaders = try Self.strings(options["captureHeaders"], "captureHeaders")
            repeatsAsScenarios = try Self.flag(options["repeatsAsScenarios"], "repeatsAsScenarios") ?? true
            persist = try Self.flag(options["persist"], "persist") ?? true
        } catch {
            return PlainError.response(400, "Invalid snapshot: \(error.description)")
        }
        var found: [JournalEntry]
        switch matchingEntries(scopedJournal.snapshot().entries, matcher) {
        case .success(let matched): found = matched
        case .failure(let refusal): return refusal.response
        }
        if let limit, found.count > limit { found = Array(found.suffix(limit)) }
        let snapshot = StubSnapshot(found, captureHeaders: captureHeaders, repeatsAsScenarios: repeatsAsScenarios)
        var skipped = snapshot.skipped
        var answered: [JSONValue] = []
        for (entry, definition) in snapshot.definitions {
            guard persist else {
                answered.append(definition)
                continue
            }
            do {
                answered.append(try addScoped(definition).listed)
            } catch {
                // An upstream's header that a stub may not send, say.
                skipped.append((entry, "its stub is one the server refuses: \(error.description)"))
            }
        }
        var body: JSONObject = ["stubs": .array(answered)]
        if !skipped.isEmpty {
            body["skipped"] = .array(
                skipped.map { ["request": .number(JSONNumber($0.entry)), "reason": .string($0.reason)] })
        }
        return .json(200, .object(body))
    }

    private static func flag(_ value: JSONValue?, _ field: String) throws(WireProblem) -> Bool? {
        guard let value else { return nil }
        guard let flag = value.boolValue else { throw WireProblem(field: field, message: "expected true or false") }
        return flag
    }

    private static func strings(_ value: JSONValue?, _ field: String) throws(WireProblem) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value, let names = Optional(items.compactMap(\.stringValue)),
            names.count == items.count
        else { throw WireProblem(field: field, message: "expected a list of header names") }
        return names
    }
}
