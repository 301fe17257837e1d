public import MockStackJSON

/// What a stub answers, and how it misbehaves: `{"status", "headers", "body" | "bodyFile",
/// "template", "delayMs", "seed", "throttleBytesPerSecond", "fault"}`; or what another server
/// answers, `{"proxyBaseUrl", "proxyUrlPrefixToRemove"}` (WireMock's names).
public struct StubResponse: Sendable, Equatable {
    /// The body of a stub's answer.
    public enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// JSON sent as `application/json`.
        case json(JSONValue)
        /// A string sent as text.
        case text(String)
        /// A file in the fixtures folder (`bodyFile`).
        case file(String)
    }

    /// How long a stub waits before it answers (the loop stays free meanwhile).
    public enum Delay: Sendable, Equatable {
        /// Always this long.
        case milliseconds(Int)
        /// Drawn evenly from the range by the stub's seeded generator.
        case random(ClosedRange<Int>)
    }

    /// The delays a stub (or `X-MockStack-Delay`) may ask for, in milliseconds.
    public static let delayRange = 0...600_000
    /// The throttles a stub (or `X-MockStack-Throttle`) may ask for, in bytes a second.
    public static let throttleRange = 1...1_000_000_000

    /// The answer's status (200 by default).
    public var status: Int
    /// Headers sent with the answer, in order.
    public var headers: [(name: String, value: String)]
    /// The answer's body.
    public var body: Body
    /// Fill `{{method}}`, `{{path}}`, `{{query.NAME}}`, `{{header.NAME}}`, `{{body/pointer}}` from the request.
    public var template: Bool
    /// A wait before the answer (`delayMs`: a number, or `{"min", "max"}`).
    public var delay: Delay?
    /// Where the stub's random delays start.
    public var seed: UInt64?
    /// The answer sent no faster than this (a slow network).
    public var throttleBytesPerSecond: Int?
    /// A connection fault's name (`reset`, `empty`, `truncate`, `malformed-chunk`, `hang`, `random-then-close`).
    public var fault: FaultName?
    /// Where the request is forwarded instead (`http://host:port/base`): the answer is the
    /// upstream's, by `--proxy-unmatched`'s rules, the request's path and query under this base.
    public var proxyBaseUrl: String?
    /// A prefix taken off the request's path before it is forwarded (an app's mount, `/test`).
    public var proxyUrlPrefixToRemove: String?

    /// An answer from its parts.
    public init(
        status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .none, template: Bool = false,
        delay: Delay? = nil, seed: UInt64? = nil, throttleBytesPerSecond: Int? = nil, fault: FaultName? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.template = template
        self.delay = delay
        self.seed = seed
        self.throttleBytesPerSecond = throttleBytesPerSecond
        self.fault = fault
    }

    /// The answer another server gives: the request forwarded under `baseURL` (its path less
    /// `prefix`, when it starts with it), by `--proxy-unmatched`'s rules.
    public static func proxy(to baseURL: String, removingPrefix prefix: String? = nil) -> StubResponse {
        var answer = StubResponse()
        answer.proxyBaseUrl = baseURL
        answer.proxyUrlPrefixToRemove = prefix
        return answer
    }

    /// Equal field by field, headers in order.
    public static func == (lhs: StubResponse, rhs: StubResponse) -> Bool {
        lhs.status == rhs.status
            && lhs.headers.elementsEqual(rhs.headers, by: { $0.name == $1.name && $0.value == $1.value })
            && lhs.body == rhs.body && lhs.template == rhs.template && lhs.delay == rhs.delay && lhs.seed == rhs.seed
            && lhs.throttleBytesPerSecond == rhs.throttleBytesPerSecond && lhs.fault == rhs.fault
            && lhs.proxyBaseUrl == rhs.proxyBaseUrl && lhs.proxyUrlPrefixToRemove == rhs.proxyUrlPrefixToRemove
    }

    enum Key {
        static let status = "status", headers = "headers", body = "body", bodyFile = "bodyFile", template = "template",
            delayMs = "delayMs", min = "min", max = "max", seed = "seed", throttle = "throttleBytesPerSecond",
            fault = "fault", proxyBaseUrl = "proxyBaseUrl", proxyUrlPrefixToRemove = "proxyUrlPrefixToRemove"
        static let all = [
            status, headers, body, bodyFile, template, delayMs, seed, throttle, fault, proxyBaseUrl,
            proxyUrlPrefixToRemove,
        ]
    }

    /// Reads an `answer` object; `field` is where it sits, for the problems it reports (`answer.status`).
    public init(json: JSONValue, field: String) throws(WireProblem) {
        guard case .object(let object) = json else { throw WireProblem(field: field, message: "expected an object") }
        func at(_ key: String) -> String { field + "." + key }
        try WireProblem.only(object, Key.all, at: field)
        self.init()
        status = try WireProblem.integer(object[Key.status], at(Key.status)) ?? 200
        if let value = object[Key.headers] {
            guard case .object(let pairs) = value else {
                throw WireProblem(field: at(Key.headers), message: "expected an object of names to strings")
            }
            for (name, item) in pairs {
                guard let text = item.stringValue else {
                    throw WireProblem(field: at(Key.headers) + "." + name, message: "expected a string")
                }
                headers.append((name, text))
            }
        }
        switch object[Key.body] {
        case nil: break
        case .string(let text)?: body = .text(text)
        case let value?: body = .json(value)
        }
        if let name = try WireProblem.string(object[Key.bodyFile], at(Key.bodyFile)) {
            guard object[Key.body] == nil else {
                throw WireProblem(field: at(Key.bodyFile), message: "give body or bodyFile, not both")
            }
            body = .file(name)
        }
        if let value = object[Key.template] {
            guard let flag = value.boolValue else {
                throw WireProblem(field: at(Key.template), message: "expected true or false")
            }
            template = flag
        }
        if let value = object[Key.delayMs] {
            let problem = WireProblem(
                field: at(Key.delayMs),
                message:
                    """
                    expected milliseconds from \(Self.delayRange.lowerBound) to \(Self.delayRange.upperBound), or \
                    {\"min\": ms, \"max\": ms}
                    """
            )
            if let fixed = value.intValue {
                guard Self.delayRange.contains(fixed) else { throw problem }
                delay = .milliseconds(fixed)
            } else if case .object(let range) = value {
                try WireProblem.only(range, [Key.min, Key.max], at: at(Key.delayMs))
                guard let low = range[Key.min]?.intValue, let high = range[Key.max]?.intValue, low <= high,
                    Self.delayRange.contains(low), Self.delayRange.contains(high)
                else { throw problem }
                delay = .random(low...high)
            } else {
                throw problem
            }
        }
        if let value = object[Key.seed] {
            guard let number = value.intValue, number >= 0 else {
                throw WireProblem(field: at(Key.seed), message: "expected a whole number ≥ 0")
            }
            seed = UInt64(number)
        }
        if let value = object[Key.throttle] {
            guard let rate = value.intValue, Self.throttleRange.contains(rate) else {
                throw WireProblem(
                    field: at(Key.throttle),
                    message:
                        """
                        expected bytes per second from \(Self.throttleRange.lowerBound) to \
                        \(Self.throttleRange.upperBound)
                        """
                )
            }
            throttleBytesPerSecond = rate
        }
        fault = try WireProblem.string(object[Key.fault], at(Key.fault)).map(FaultName.init(rawValue:))
        try readProxy(object, field: field)
    }

    /// `proxyBaseUrl`, alone but for `proxyUrlPrefixToRemove`: the upstream's answer is the answer.
    private mutating func readProxy(_ object: JSONObject, field: String) throws(WireProblem) {
        proxyUrlPrefixToRemove = try WireProblem.string(
            object[Key.proxyUrlPrefixToRemove], field + "." + Key.proxyUrlPrefixToRemove)
        guard let base = try WireProblem.string(object[Key.proxyBaseUrl], field + "." + Key.proxyBaseUrl) else {
            if proxyUrlPrefixToRemove != nil {
                throw WireProblem(field: field + "." + Key.proxyUrlPrefixToRemove, message: "only with proxyBaseUrl")
            }
            return
        }
        let lowered = base.lowercased()
        let rest = lowered.drop(while: { $0 != ":" })
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), rest.count > 3,
            !base.contains("?"), !base.contains("#")
        else {
            throw WireProblem(
                field: field + "." + Key.proxyBaseUrl,
                message: "expected an http or https URL without a query (http://127.0.0.1:8080/base)")
        }
        let others = [
            Key.status, Key.headers, Key.body, Key.bodyFile, Key.template, Key.delayMs, Key.seed, Key.throttle,
            Key.fault,
        ]
        if let other = others.first(where: { object[$0] != nil }) {
            throw WireProblem(
                field: field + "." + other,
                message: "not with proxyBaseUrl: the answer is what the upstream answers")
        }
        if let prefix = proxyUrlPrefixToRemove, !prefix.hasPrefix("/") {
            throw WireProblem(field: field + "." + Key.proxyUrlPrefixToRemove, message: "expected a path (/test)")
        }
        proxyBaseUrl = base
    }

    /// The answer as a stub definition writes it; unset parts are left out.
    public var json: JSONValue {
        var object: JSONObject = [Key.status: .number(JSONNumber(status))]
        if !headers.isEmpty { object[Key.headers] = .object(JSONObject(headers.map { ($0.name, .string($0.value)) })) }
        switch body {
        case .none: break
        case .json(let value): object[Key.body] = value
        case .text(let text): object[Key.body] = .string(text)
        case .file(let name): object[Key.bodyFile] = .string(name)
        }
        if template { object[Key.template] = .bool(true) }
        switch delay {
        case .milliseconds(let value)?: object[Key.delayMs] = .number(JSONNumber(value))
        case .random(let range)?:
            object[Key.delayMs] = [
                Key.min: .number(JSONNumber(range.lowerBound)), Key.max: .number(JSONNumber(range.upperBound)),
            ]
        case nil: break
        }
        if let seed { object[Key.seed] = .number(JSONNumber(Int(clamping: seed))) }
        if let throttleBytesPerSecond { object[Key.throttle] = .number(JSONNumber(throttleBytesPerSecond)) }
        if let fault { object[Key.fault] = .string(fault.rawValue) }
        if let proxyBaseUrl {
            // A proxying answer has no status of its own.
            object = [Key.proxyBaseUrl: .string(proxyBaseUrl)]
            if let proxyUrlPrefixToRemove { object[Key.proxyUrlPrefixToRemove] = .string(proxyUrlPrefixToRemove) }
        }
        return .object(object)
    }
}
