import MockStackCore
import MockStackWire

/// `POST stubs/snapshot`, WireMock's snapshot recording (README.md, Snapshots): journal entries
/// turned into stub definitions that answer their requests as they were answered. An app's
/// answers and those forwarded by `--proxy-unmatched` alike, so that one exploratory run against
/// a live host becomes a test's stubs.
///
/// - A stub matches its request's method, path, query parameters (each by the value matching
///   reads: the last, for a name given more than once),
///   JSON body (exact) and the headers named in `captureHeaders`.
/// - It answers the status, the headers (the effective `Content-Type` included; the framing
///   headers are the server's) and the body: JSON as JSON when that writes the same bytes back,
///   else the text as it was.
/// - Requests that match alike and were answered several times become a scenario that answers
///   them in turn, the last answer from then on (`repeatsAsScenarios`, on by default); without
///   it the first answer alone is kept.
/// - What a stub cannot say, or need not, is skipped with the reason: an entry a stub answered or
///   nothing did (a 404 for no app), a fault, a stream or upgrade, a binary body, a body the
///   journal cut.
struct StubSnapshot {
    /// The definitions, each with the journal entry it came from, and the entries left out
    /// with why.
    var definitions: [(entry: Int, json: JSONValue)] = []
    var skipped: [(entry: Int, reason: String)] = []

    /// - Parameters:
    ///   - entries: the journal entries to turn into stubs, oldest first;
    ///   - captureHeaders: the request headers a stub also matches, by name.
    init(_ entries: [JournalEntry], captureHeaders: [String], repeatsAsScenarios: Bool) {
        // The entries whose requests match alike, in order of first appearance.
        var groups: [(match: JSONValue, answers: [(entry: Int, answer: JSONValue)])] = []
        for entry in entries {
            let answer: JSONValue
            let match: JSONValue
            switch (Self.answer(of: entry), Self.match(of: entry, captureHeaders: captureHeaders)) {
            case (.success(let found), .success(let pattern)): (answer, match) = (found, pattern)
            case (.failure(let reason), _), (_, .failure(let reason)):
                skipped.append((entry.id, reason.text))
                continue
            }
            if let index = groups.firstIndex(where: { $0.match == match }) {
                groups[index].answers.append((entry.id, answer))
            } else {
                groups.append((match, [(entry.id, answer)]))
            }
        }
        for group in groups {
            guard repeatsAsScenarios, group.answers.count > 1 else {
                definitions.append((group.answers[0].entry, ["match": group.match, "answer": group.answers[0].answer]))
                continue
            }
            let method = group.match["method"]?.stringValue ?? ""
            let path = group.match["path"]?.stringValue ?? ""
            let scenario = "\(method) \(path) (from request \(group.answers[0].entry))"
            for (step, recorded) in group.answers.enumerated() {
                var definition: JSONObject = [
                    "match": group.match, "answer": recorded.answer, "scenario": .string(scenario),
                    "requiredState": .string(step == 0 ? StubDefinition.startedState : "after \(step)"),
                ]
                if step < group.answers.count - 1 { definition["newState"] = .string("after \(step + 1)") }
                definitions.append((recorded.entry, .object(definition)))
            }
        }
    }

    private struct Reason: Error {
        var text: String
    }

    /// The request pattern an entry's request matches.
    private static func match(of entry: JournalEntry, captureHeaders: [String]) -> Result<JSONValue, Reason> {
        let request = entry.request
        guard !entry.cuts.path, !entry.cuts.query else {
            return .failure(Reason(text: "its path or query was cut at the journal's bounds"))
        }
        var match: JSONObject = ["method": .string(request.method.rawValue), "path": .string(request.path)]
        let query = QueryParameters(request.query)
        if !query.names.isEmpty {
            var parameters = JSONObject()
            for name in query.names {
                parameters[name] = .string(query.value(named: name, ignoringCase: false) ?? "")
            }
            match["query"] = .object(parameters)
        }
        var headers = JSONObject()
        for name in captureHeaders {
            guard let value = request.headers[name] else { continue }
            headers[name] = .string(value)
        }
        if !headers.isEmpty { match["headers"] = .object(headers) }
        // A body that is JSON is matched as `body` is, whatever its type says; another is not matched.
        if !request.body.isEmpty, let body = try? JSONParser.forRequestBodies().parse(request.body).root {
            guard request.body.count == entry.bodySize else {
                return .failure(Reason(text: "its request body was cut at --journal-body-bytes"))
            }
            match["body"] = body
        }
        return .success(.object(match))
    }

    /// The stub answer that sends what the entry's request got.
    private static func answer(of entry: JournalEntry) -> Result<JSONValue, Reason> {
        if let stub = entry.stub { return .failure(Reason(text: "\(stub) answered it")) }
        if entry.unmatched { return .failure(Reason(text: "nothing answered it (no app, stub or upstream took it)")) }
        switch entry.delivery {
        case .upgrade, .streamed, .deferred:
            return .failure(Reason(text: "its answer was a stream or an upgrade"))
        default:
            if entry.delivery.fault != nil {
                return .failure(Reason(text: "its answer was broken on purpose (a fault)"))
            }
        }
        let response = entry.response
        guard entry.responseBodyShown >= entry.responseBodySize, !entry.responseHeadersTruncated else {
            return .failure(Reason(text: "its answer was cut at the journal's bounds (--journal-body-bytes)"))
        }
        let body = Array(response.body.prefix(entry.responseBodySize))
        var answer: JSONObject = ["status": .number(JSONNumber(response.status))]
        // A header sent more than once is kept as often (a JSON object may repeat a name).
        var headers: [JSONObject.Member] = response.headers.compactMap { field in
            FramingHeaders.contains(field.name) ? nil : (key: field.name, value: .string(field.value))
        }
        let type = entry.responseBodyType.resolved(in: response.headers)
        if !body.isEmpty, type == nil, response.defaultsContentType {
            headers.append((key: "Content-Type", value: .string(MediaType.json)))
        }
        if !headers.isEmpty { answer["headers"] = .object(JSONObject(headers)) }
        guard !body.isEmpty else { return .success(.object(answer)) }
        if (type ?? (response.defaultsContentType ? MediaType.json : "")).lowercased().contains("json"),
            let parsed = try? JSONParser().parse(body).root, parsed.stringValue == nil, parsed.encoded() == body
        {
            answer["body"] = parsed
        } else if let text = String(validating: body, as: UTF8.self) {
            answer["body"] = .string(text)
        } else {
            return .failure(Reason(text: "its answer is binary, which a stub's body cannot hold"))
        }
        return .success(.object(answer))
    }
}
