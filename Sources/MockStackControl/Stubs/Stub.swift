import MockStackCore
import MockStackWire

/// A response override added at runtime (`POST /__mockstack/stubs`): requests that match get
/// the answer instead of the app's, the lowest `priority` first (the newest among equals), at
/// most `times` times when a limit is set — "fail the first two calls, then fall through" —
/// and, in a scenario, only in its required state.
///
/// Read from its wire form (``StubDefinition``) and compiled here: its regexes, its file, the
/// limits the server holds answers to.
struct Stub: Sendable {
    var id: String
    let definition: StubDefinition
    let match: RequestMatcher
    let answer: StubAnswer
    /// Its hits, and the generator of its random delays (its own, so other traffic does not
    /// change its sequence).
    let usage: StubUsage
    var hits: Int { usage.hits }
    /// The definition as given, echoed by `GET stubs`.
    let json: JSONValue
    /// The file `serve --stubs` read it from (`login.json`), for one of those.
    let origin: String?

    var priority: Int { definition.priority }
    var times: Int? { definition.times }
    var isExhausted: Bool { times.map { hits >= $0 } ?? false }

    /// A problem with a stub definition, naming its field (a 400).
    struct Problem: Error {
        var field: String
        var message: String
        var description: String { "\(field): \(message)" }
    }

    /// Reads and compiles a definition.
    /// - Parameters:
    ///   - files: where `answer.bodyFile` is read from (the fixtures folder);
    ///   - seed: where random delays start when the answer names no `seed`.
    ///   - origin: the file it came from, for a stub `serve --stubs` loaded.
    init(
        id: String, json: JSONValue, files: (any FixtureSource)?, seed: UInt64 = 0, origin: String? = nil
    ) throws(Problem) {
        let definition: StubDefinition
        do throws(WireProblem) {
            definition = try StubDefinition(json: json)
        } catch {
            throw Problem(field: error.field, message: error.message)
        }
        self.id = id
        self.json = json
        self.origin = origin
        self.definition = definition
        do throws(RequestMatcher.Problem) {
            match = try RequestMatcher(definition.match, field: "match")
        } catch {
            throw Problem(field: error.field, message: error.message)
        }
        answer = try Self.compile(definition.answer, files: files)
        usage = StubUsage(seed: answer.seed ?? seed)
    }

    /// `answer.bodyFile`: a regular file inside the fixtures folder, reached without leaving it.
    private static func bodyFile(_ name: String, in files: (any FixtureSource)?) throws(Problem) -> [UInt8] {
        let field = "answer.bodyFile"
        guard let files else {
            throw Problem(field: field, message: "this server has no fixtures folder to read '\(name)' from")
        }
        if let problem = FixturePath.problem(in: name) { throw Problem(field: field, message: "'\(name)' \(problem)") }
        guard files.fileExists(name) else {
            throw Problem(field: field, message: "no file '\(name)' in the fixtures folder")
        }
        do {
            return try files.read(name)
        } catch {
            throw Problem(field: field, message: "\(error)")
        }
    }

    /// The answer the server sends: its status, headers and body checked against what HTTP and
    /// the connection allow, its file read, its misbehaviour within the limits.
    private static func compile(_ response: StubResponse, files: (any FixtureSource)?) throws(Problem) -> StubAnswer {
        var answer = StubAnswer()
        // A 1xx is interim: sent as the answer, the client would wait for another after it.
        guard HTTPStatus.finalStatuses.contains(response.status) else {
            throw Problem(field: "answer.status", message: "expected a status from 200 to 599")
        }
        answer.status = response.status
        answer.headers = response.headers
        for (name, value) in answer.headers {
            if let problem = FramingHeaders.problem(with: name) {
                throw Problem(field: "answer.headers." + name, message: problem)
            }
            if let problem = ConfiguredHeaderText.problem(name: name, value: value) {
                throw Problem(field: "answer.headers." + name, message: problem)
            }
        }
        switch response.body {
        case .none: break
        case .text(let text): answer.body = .text(text)
        case .json(let value): answer.body = .json(value)
        case .file(let name):
            let data = try bodyFile(name, in: files)
            answer.body = .bytes(data)
            if name.hasSuffix(".json") {
                answer.body = (try? JSONParser().parse(data).root).map(StubAnswer.Body.json) ?? .bytes(data)
            }
        }
        if HTTPStatus.forbidsBody(answer.status) {
            switch response.body {
            case .none: break
            case .file:
                throw Problem(
                    field: "answer.bodyFile", message: "a \(answer.status) answer has no body (HTTP forbids one)")
            default:
                throw Problem(field: "answer.body", message: "a \(answer.status) answer has no body (HTTP forbids one)")
            }
        }
        answer.template = response.template
        // The delay and the throttle were held to their ranges when read (``StubResponse``).
        switch response.delay {
        case nil: break
        case .milliseconds(let fixed)?: answer.misbehaviour.delay = .fixed(fixed)
        case .random(let range)?: answer.misbehaviour.delay = .random(range)
        }
        answer.seed = response.seed
        answer.misbehaviour.throttle = response.throttleBytesPerSecond
        if let name = response.fault?.rawValue {
            guard let fault = Fault(rawValue: name.lowercased()) else {
                throw Problem(
                    field: "answer.fault", message: "unknown fault '\(name)' (faults: \(Misbehaviour.faultNames))")
            }
            answer.misbehaviour.fault = fault
        }
        return answer
    }

    /// The stub as `GET stubs` lists it.
    var listed: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "priority": .number(JSONNumber(priority)),
            "times": times.map { .number(JSONNumber($0)) } ?? .null,
            "hits": .number(JSONNumber(hits)), "exhausted": .bool(isExhausted),
        ]
        if let origin { object["file"] = .string(origin) }
        object["definition"] = json
        return .object(object)
    }
}
