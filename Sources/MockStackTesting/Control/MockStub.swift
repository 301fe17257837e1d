public import MockStackJSON
public import MockStackWire

/// A runtime stub (`POST /__mockstack/stubs`), typed: which requests it takes and what it
/// answers, with a priority and an optional hit limit.
///
/// ```swift
/// // Fail the first two calls with a reset, then let the app answer.
/// try await mock.stub(.post("/feathers/messages"), .fault(.reset), times: 2)
/// ```
public struct MockStub: Sendable {
    public var match: Match
    public var answer: Answer
    /// Higher wins; the newest among equals.
    public var priority: Int
    /// Answer at most this many times, then fall through.
    public var times: Int?

    public init(match: Match, answer: Answer, priority: Int = 0, times: Int? = nil) {
        self.match = match
        self.answer = answer
        self.priority = priority
        self.times = times
    }

    /// Which requests a stub takes; every field given must match.
    public struct Match: Sendable {
        public var method: String?
        public var path: String?
        public var pathPrefix: String?
        public var pathRegex: String?
        public var query: [String: String] = [:]
        public var headers: [String: String] = [:]
        /// The JSON body, equal as JSON.
        public var body: JSONValue?
        /// JSON pointers into the body and the values they must hold.
        public var bodyPointers: [String: JSONValue] = [:]
        public var app: String?

        public init(method: String? = nil, path: String? = nil, pathPrefix: String? = nil, pathRegex: String? = nil,
                    query: [String: String] = [:], headers: [String: String] = [:], body: JSONValue? = nil,
                    bodyPointers: [String: JSONValue] = [:], app: String? = nil) {
            self.method = method
            self.path = path
            self.pathPrefix = pathPrefix
            self.pathRegex = pathRegex
            self.query = query
            self.headers = headers
            self.body = body
            self.bodyPointers = bodyPointers
            self.app = app
        }

        public static func get(_ path: String) -> Match { Match(method: "GET", path: path) }
        public static func post(_ path: String) -> Match { Match(method: "POST", path: path) }
        public static func put(_ path: String) -> Match { Match(method: "PUT", path: path) }
        public static func patch(_ path: String) -> Match { Match(method: "PATCH", path: path) }
        public static func delete(_ path: String) -> Match { Match(method: "DELETE", path: path) }
        /// Any method, this exact path.
        public static func path(_ path: String) -> Match { Match(path: path) }
        /// Any method, paths under this prefix.
        public static func prefix(_ prefix: String) -> Match { Match(pathPrefix: prefix) }
    }

    /// What a stub answers, and how it misbehaves.
    public struct Answer: Sendable {
        public var status: Int = 200
        public var headers: [String: String] = [:]
        public var body: Body = .none
        /// Fill `{{method}}`, `{{path}}`, `{{query.x}}`, `{{header.x}}`, `{{body/pointer}}` from the request.
        public var template = false
        public var delay: Delay?
        /// Where a random delay's sequence starts.
        public var seed: UInt64?
        public var throttleBytesPerSecond: Int?
        public var fault: Fault?

        public init(status: Int = 200, headers: [String: String] = [:], body: Body = .none, template: Bool = false,
                    delay: Delay? = nil, seed: UInt64? = nil, throttleBytesPerSecond: Int? = nil, fault: Fault? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.template = template
            self.delay = delay
            self.seed = seed
            self.throttleBytesPerSecond = throttleBytesPerSecond
            self.fault = fault
        }

        public enum Body: Sendable {
            case none
            case json(JSONValue)
            case text(String)
            /// A file under the fixtures folder.
            case file(String)
        }

        public enum Delay: Sendable {
            case milliseconds(Int)
            /// Drawn evenly from the range by a seeded generator.
            case random(ClosedRange<Int>)
        }

        public static func status(_ status: Int) -> Answer { Answer(status: status) }
        public static func json(_ value: JSONValue, status: Int = 200) -> Answer { Answer(status: status, body: .json(value)) }
        public static func text(_ text: String, status: Int = 200) -> Answer { Answer(status: status, body: .text(text)) }
        public static func fault(_ fault: Fault) -> Answer { Answer(fault: fault) }
    }

    /// The definition as the control plane reads it.
    public var json: JSONValue {
        var match: JSONObject = [:]
        for (key, value) in [("method", self.match.method), ("path", self.match.path), ("pathPrefix", self.match.pathPrefix),
                             ("pathRegex", self.match.pathRegex), ("app", self.match.app)] {
            if let value { match[key] = .string(value) }
        }
        if !self.match.query.isEmpty { match["query"] = .object(JSONObject(self.match.query.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        if !self.match.headers.isEmpty { match["headers"] = .object(JSONObject(self.match.headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        if let body = self.match.body { match["body"] = body }
        if !self.match.bodyPointers.isEmpty { match["bodyPointers"] = .object(JSONObject(self.match.bodyPointers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })) }

        var answer: JSONObject = ["status": .number(JSONNumber(self.answer.status))]
        if !self.answer.headers.isEmpty { answer["headers"] = .object(JSONObject(self.answer.headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        switch self.answer.body {
        case .none: break
        case .json(let value): answer["body"] = value
        case .text(let text): answer["body"] = .string(text)
        case .file(let name): answer["bodyFile"] = .string(name)
        }
        if self.answer.template { answer["template"] = true }
        switch self.answer.delay {
        case .milliseconds(let value)?: answer["delayMs"] = .number(JSONNumber(value))
        case .random(let range)?: answer["delayMs"] = ["min": .number(JSONNumber(range.lowerBound)), "max": .number(JSONNumber(range.upperBound))]
        case nil: break
        }
        if let seed = self.answer.seed { answer["seed"] = .number(JSONNumber(Int(clamping: seed))) }
        if let rate = self.answer.throttleBytesPerSecond { answer["throttleBytesPerSecond"] = .number(JSONNumber(rate)) }
        if let fault = self.answer.fault { answer["fault"] = .string(fault.rawValue) }

        var root: JSONObject = ["match": .object(match), "answer": .object(answer), "priority": .number(JSONNumber(priority))]
        if let times { root["times"] = .number(JSONNumber(times)) }
        return .object(root)
    }
}
