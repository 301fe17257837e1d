import MockStackCore
import MockStackWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The journal's endpoints: `requests`, `requests/unmatched`, `requests/count`, `requests/find`.
extension ControlPlane {
    /// `GET requests?app=&method=&path=&operation=&since=&limit=`: matching entries oldest
    /// first (`limit`: the newest N of them), with how many the ring has dropped; unmatched ones
    /// with the mounted routes nearest to their path (``NearestRoutes``, worked out now, for the
    /// entries shown). `GET requests/unmatched`: only those.
    func requests(_ request: HTTPRequest, unmatchedOnly: Bool = false) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        var filters: [(JournalEntry) -> Bool] = []
        let known = ["app", "session", "method", "path", "pathPrefix", "operation", "since", "limit"]
        for name in parameters.names where !known.contains(name) {
            return PlainError.response(400, "Unknown filter '\(name)' (filters: \(known.joined(separator: ", ")))")
        }
        if let app = parameters["app"] { filters.append { $0.app == app } }
        if let session = parameters["session"] { filters.append { $0.session == session } }
        if let method = parameters["method"]?.uppercased() { filters.append { $0.request.method.rawValue == method } }
        if let path = parameters["path"] { filters.append { $0.request.path == path } }
        if let prefix = parameters["pathPrefix"] { filters.append { $0.request.path.hasPrefix(prefix) } }
        if let operation = parameters["operation"] { filters.append { $0.operation == operation } }
        if let since = parameters["since"] {
            if let id = Int(since) {
                filters.append { $0.id > id }
            } else if let time = (try? Date(since, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(since, strategy: .iso8601))
            {
                filters.append { $0.time > time }
            } else {
                return PlainError.response(400, "since: expected an entry id or an ISO-8601 time, found '\(since)'")
            }
        }
        var limit = Int.max
        if let text = parameters["limit"] {
            guard let value = Int(text), value >= 0 else {
                return PlainError.response(400, "limit: expected a whole number ≥ 0, found '\(text)'")
            }
            limit = value
        }
        if unmatchedOnly { filters.append(\.unmatched) }
        let (entries, dropped) = scopedJournal.snapshot()
        let matching = entries.filter { entry in filters.allSatisfy { $0(entry) } }
        let shown = matching.suffix(limit)
        return .json(
            200,
            [
                "requests": .array(described(shown, among: entries)), "total": .number(JSONNumber(matching.count)),
                "dropped": .number(JSONNumber(dropped)), "capacity": .number(JSONNumber(scopedJournal.capacity)),
            ])
    }

    /// Entries as JSON, the unmatched ones with `"nearest"`: the routes they may have meant
    /// (among equals, those of the apps used most in `journal`, the whole scope's, not only the
    /// entries shown), each path worked out once however often it recurs, for the newest
    /// ``NearestRoutes/pathsPerRead`` paths (older entries go without, so a read stays cheap).
    private func described(
        _ entries: some BidirectionalCollection<JournalEntry>, among journal: some Sequence<JournalEntry>
    ) -> [JSONValue] {
        guard entries.contains(where: \.unmatched) else { return entries.map(\.json) }
        let routes = NearestRoutes(apps: apps)
        var used: [String: Int] = [:]
        for entry in journal {
            if let app = entry.app { used[app, default: 0] += 1 }
        }
        var found: [String: JSONValue] = [:]
        var described: [JSONValue] = []
        described.reserveCapacity(entries.count)
        for entry in entries.reversed() {
            guard entry.unmatched, case .object(var object) = entry.json else {
                described.append(entry.json)
                continue
            }
            let path = entry.request.path
            if let nearest = found[path] {
                object["nearest"] = nearest
            } else if found.count < NearestRoutes.pathsPerRead {
                let nearest = JSONValue.array(routes.nearest(to: path, used: used).map(NearestRoutes.json))
                found[path] = nearest
                object["nearest"] = nearest
            }
            described.append(.object(object))
        }
        return described.reversed()
    }

    /// `POST requests/count` and `POST requests/find`: the entries of this scope's journal
    /// that match a request pattern (the shape of a stub's `match`), counted (`{"count": N}`)
    /// or listed oldest first (`{"requests": […]}`). Without `session`, the server's journal
    /// counts every session's requests too. A pattern whose regexes run out of steps
    /// (``PatternBudget``) is a 422: a count it could not finish would be wrong.
    func verify(_ request: HTTPRequest, counting: Bool) -> HTTPResponse {
        let matcher: RequestMatcher
        do {
            let json =
                request.body.isEmpty
                ? JSONValue.object([:]) : try JSONParser.forRequestBodies().parse(request.body).root
            matcher = try RequestMatcher(RequestPattern(json: json, field: ""), field: "")
        } catch let problem as WireProblem {
            return PlainError.response(400, "Invalid pattern: \(problem.description)")
        } catch let problem as RequestMatcher.Problem {
            return PlainError.response(400, "Invalid pattern: \(problem.field): \(problem.message)")
        } catch {
            return PlainError.response(400, "The pattern is not JSON: \(error)")
        }
        let entries = scopedJournal.snapshot().entries
        let found: [JournalEntry]
        switch matchingEntries(entries, matcher) {
        case .success(let matched): found = matched
        case .failure(let refusal): return refusal.response
        }
        return counting
            ? .json(200, ["count": .number(JSONNumber(found.count))])
            : .json(200, ["requests": .array(described(found, among: entries))])
    }

    /// A 422 for a pattern whose regexes ran out of steps partway through the journal.
    struct PatternBudgetRefusal: Error {
        var response: HTTPResponse
    }

    /// The entries a pattern matches (on the server's control plane, sessions' too), within
    /// one ``PatternBudget`` for the whole journal: a verification holds its loop no longer than
    /// a stubbed request may.
    func matchingEntries(
        _ entries: some Sequence<JournalEntry>, _ matcher: RequestMatcher
    ) -> Result<[JournalEntry], PatternBudgetRefusal> {
        let ignoringCase = appsIgnoringParameterCase
        var budget = PatternBudget()
        var found: [JournalEntry] = []
        for entry in entries {
            if matcher.matches(subject(of: entry, ignoringCase), anySession: true, within: &budget) {
                found.append(entry)
            }
            if budget.isSpent {
                return .failure(
                    PatternBudgetRefusal(
                        response: PlainError.response(
                            422,
                            """
                            The pattern's regular expressions ran out of steps (\(PatternBudget.perRequest) a request \
                            at most) at journal entry \(entry.id), so the entries from there on could not be matched; \
                            a simpler regex, or one over a shorter part of the request, can be
                            """)))
            }
        }
        return .success(found)
    }

    /// A journal entry as stubs and verifications match it: the request as kept (its body cut
    /// at the capture limit), with the operation that answered it.
    /// - Parameter ignoringCase: ``appsIgnoringParameterCase``.
    func subject(of entry: JournalEntry, _ ignoringCase: Set<String>) -> MatchedRequest {
        MatchedRequest(
            entry.request, app: entry.app, session: entry.session,
            parameterNamesIgnoreCase: entry.app.map(ignoringCase.contains) ?? false, knownOperation: entry.operation)
    }

    /// The apps whose query parameter names match in any case (``MockApp/parameterNamesIgnoreCase``).
    var appsIgnoringParameterCase: Set<String> {
        Set(apps.filter(\.parameterNamesIgnoreCase).map(\.name))
    }
}
