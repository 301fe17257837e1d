#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackCore

/// A response override added at runtime (`POST /__mockstack/stubs`): requests that match get
/// the answer instead of the app's, highest `priority` first (the newest among equals), at most
/// `times` times when a limit is set — "fail the first two calls, then fall through".
struct Stub: Sendable {
    var id: String
    var match: StubMatch
    var answer: StubAnswer
    var priority = 0
    var times: Int?
    /// Its hits, and the generator of its random delays (its own, so other traffic does not
    /// change its sequence).
    let usage: StubUsage
    var hits: Int { usage.hits }
    /// The request as given, echoed by `GET stubs`.
    var definition: JSONValue

    var isExhausted: Bool { times.map { hits >= $0 } ?? false }

    /// A problem with a stub definition, naming its field (a 400).
    struct Problem: Error {
        var field: String
        var message: String
        var description: String { "\(field): \(message)" }
    }

    /// Reads `{"match": {…}, "answer": {…}, "priority": 0, "times": 2}`.
    /// - Parameter files: where `answer.bodyFile` is read from (the fixtures folder).
    ///   - seed: where random delays start when the answer names no `seed`.
    init(id: String, json: JSONValue, files: (any FixtureSource)?, seed: UInt64 = 0) throws(Problem) {
        guard case .object(let root) = json else { throw Problem(field: "stub", message: "expected an object with match and answer") }
        try Self.only(root, ["match", "answer", "priority", "times"], at: "")
        self.id = id
        definition = json
        if let value = root["priority"] {
            guard let number = value.intValue else { throw Problem(field: "priority", message: "expected a whole number") }
            priority = number
        }
        if let value = root["times"] {
            guard let number = value.intValue, number > 0 else { throw Problem(field: "times", message: "expected a whole number above 0") }
            times = number
        }
        match = try Self.readMatch(root["match"] ?? .object([:]))
        answer = try Self.readAnswer(root["answer"] ?? .object([:]), files: files)
        usage = StubUsage(seed: answer.seed ?? seed)
    }

    private static func only(_ object: JSONObject, _ keys: Set<String>, at field: String) throws(Problem) {
        for key in object.keys where !keys.contains(key) {
            throw Problem(field: field.isEmpty ? key : field + "." + key, message: "unknown field (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }

    /// `answer.bodyFile`: a regular file inside the fixtures folder, reached without leaving it.
    private static func bodyFile(_ name: String, in files: (any FixtureSource)?) throws(Problem) -> [UInt8] {
        let field = "answer.bodyFile"
        guard let files else { throw Problem(field: field, message: "this server has no fixtures folder to read '\(name)' from") }
        if let problem = FixturePath.problem(in: name) { throw Problem(field: field, message: "'\(name)' \(problem)") }
        guard files.fileExists(name) else { throw Problem(field: field, message: "no file '\(name)' in the fixtures folder") }
        do {
            return try files.read(name)
        } catch {
            throw Problem(field: field, message: "\(error)")
        }
    }

    private static func string(_ value: JSONValue?, _ field: String) throws(Problem) -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue else { throw Problem(field: field, message: "expected a string") }
        return text
    }

    private static func pairs(_ value: JSONValue?, _ field: String) throws(Problem) -> [(name: String, value: String)] {
        guard let value else { return [] }
        guard case .object(let object) = value else { throw Problem(field: field, message: "expected an object of names to strings") }
        var result: [(name: String, value: String)] = []
        for (name, item) in object {
            guard let text = item.stringValue else { throw Problem(field: field + "." + name, message: "expected a string") }
            result.append((name, text))
        }
        return result
    }

    private static func readMatch(_ json: JSONValue) throws(Problem) -> StubMatch {
        guard case .object(let object) = json else { throw Problem(field: "match", message: "expected an object") }
        try only(object, ["method", "path", "pathPrefix", "pathRegex", "query", "headers", "body", "bodyPointers", "app", "session"], at: "match")
        var match = StubMatch()
        if let name = try string(object["method"], "match.method") {
            guard let method = HTTPMethod(name: name.uppercased()) else { throw Problem(field: "match.method", message: "'\(name)' is not an HTTP method") }
            match.method = method
        }
        match.path = try string(object["path"], "match.path")
        match.pathPrefix = try string(object["pathPrefix"], "match.pathPrefix")
        if let pattern = try string(object["pathRegex"], "match.pathRegex") {
            do throws(PatternError) {
                match.pathRegex = try Pattern(pattern)
            } catch {
                throw Problem(field: "match.pathRegex", message: error.description)
            }
        }
        match.query = try pairs(object["query"], "match.query")
        match.headers = try pairs(object["headers"], "match.headers")
        match.body = object["body"]
        if let pointers = object["bodyPointers"] {
            guard case .object(let entries) = pointers else { throw Problem(field: "match.bodyPointers", message: "expected an object of JSON pointers to values") }
            for (pointer, value) in entries {
                guard pointer.isEmpty || pointer.hasPrefix("/") else { throw Problem(field: "match.bodyPointers", message: "'\(pointer)' is not a JSON pointer") }
                match.bodyPointers.append((pointer, value))
            }
        }
        match.app = try string(object["app"], "match.app")
        match.session = try string(object["session"], "match.session")
        return match
    }

    private static func readAnswer(_ json: JSONValue, files: (any FixtureSource)?) throws(Problem) -> StubAnswer {
        guard case .object(let object) = json else { throw Problem(field: "answer", message: "expected an object") }
        try only(object, ["status", "headers", "body", "bodyFile", "template", "delayMs", "seed", "throttleBytesPerSecond", "fault"], at: "answer")
        var answer = StubAnswer()
        if let value = object["status"] {
            // A 1xx is interim: sent as the answer, the client would wait for another after it.
            guard let status = value.intValue, HTTPStatus.finalStatuses.contains(status) else {
                throw Problem(field: "answer.status", message: "expected a status from 200 to 599")
            }
            answer.status = status
        }
        answer.headers = try pairs(object["headers"], "answer.headers")
        for (name, _) in answer.headers {
            if let problem = FramingHeaders.problem(with: name) { throw Problem(field: "answer.headers." + name, message: problem) }
        }
        switch object["body"] {
        case nil: break
        case .string(let text)?: answer.body = .text(text)
        case let value?: answer.body = .json(value)
        }
        if let name = try string(object["bodyFile"], "answer.bodyFile") {
            guard object["body"] == nil else { throw Problem(field: "answer.bodyFile", message: "give body or bodyFile, not both") }
            let data = try bodyFile(name, in: files)
            answer.body = .bytes(data)
            if name.hasSuffix(".json") { answer.body = (try? JSONParser().parse(data).root).map(StubAnswer.Body.json) ?? .bytes(data) }
        }
        if HTTPStatus.forbidsBody(answer.status), object["body"] != nil || object["bodyFile"] != nil {
            throw Problem(field: object["body"] != nil ? "answer.body" : "answer.bodyFile", message: "a \(answer.status) answer has no body (HTTP forbids one)")
        }
        if let value = object["template"] {
            guard let flag = value.boolValue else { throw Problem(field: "answer.template", message: "expected true or false") }
            answer.template = flag
        }
        if let value = object["delayMs"] {
            answer.misbehaviour.delay = try readDelay(value)
        }
        if let value = object["seed"] {
            guard let seed = value.intValue, seed >= 0 else { throw Problem(field: "answer.seed", message: "expected a whole number ≥ 0") }
            answer.seed = UInt64(seed)
        }
        if let value = object["throttleBytesPerSecond"] {
            guard let rate = value.intValue, Misbehaviour.throttleRange.contains(rate) else {
                throw Problem(field: "answer.throttleBytesPerSecond", message: "expected bytes per second from 1 to 1000000000")
            }
            answer.misbehaviour.throttle = rate
        }
        if let name = try string(object["fault"], "answer.fault") {
            guard let fault = Fault(rawValue: name.lowercased()) else {
                throw Problem(field: "answer.fault", message: "unknown fault '\(name)' (faults: \(Misbehaviour.faultNames))")
            }
            answer.misbehaviour.fault = fault
        }
        return answer
    }

    /// `250`, or `{"min": 100, "max": 500}` for a seeded random wait between the two.
    private static func readDelay(_ value: JSONValue) throws(Problem) -> Misbehaviour.Delay {
        let message = "expected milliseconds from 0 to 600000, or {\"min\": ms, \"max\": ms}"
        if let fixed = value.intValue, Misbehaviour.delayRange.contains(fixed) { return .fixed(fixed) }
        guard case .object(let range) = value else { throw Problem(field: "answer.delayMs", message: message) }
        try only(range, ["min", "max"], at: "answer.delayMs")
        guard let low = range["min"]?.intValue, let high = range["max"]?.intValue, low <= high,
              Misbehaviour.delayRange.contains(low), Misbehaviour.delayRange.contains(high) else {
            throw Problem(field: "answer.delayMs", message: message)
        }
        return .random(low...high)
    }

    /// The stub as `GET stubs` lists it.
    var json: JSONValue {
        var object: JSONObject = ["id": .string(id), "priority": .number(JSONNumber(priority)), "times": times.map { .number(JSONNumber($0)) } ?? .null,
                                  "hits": .number(JSONNumber(hits)), "exhausted": .bool(isExhausted)]
        object["definition"] = definition
        return .object(object)
    }
}
