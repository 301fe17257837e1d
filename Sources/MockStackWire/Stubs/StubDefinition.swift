public import MockStackJSON

/// A runtime stub as the server reads it from `POST /__mockstack/stubs` and the testing
/// product writes it: which requests it takes, what it answers, and when.
///
/// `{"match": {…}, "answer": {…}, "priority": 5, "times": 2, "scenario": "…", "requiredState": "…", "newState": "…"}`
/// (``RequestPattern``, ``StubResponse``). Reading checks the shape only; the server then
/// compiles it (its regexes, its file, its limits) and answers 400 naming the field for what it refuses.
public struct StubDefinition: Sendable, Equatable {
    /// Which requests it takes (`match`); an empty pattern takes every request.
    public var match: RequestPattern
    /// What it answers (`answer`).
    public var answer: StubResponse
    /// Lower wins, as in WireMock (1 before 5); ``defaultPriority`` when not given. The newest
    /// wins among equals.
    public var priority: Int
    /// Answer at most this many requests, then let them through.
    public var times: Int?
    /// A stateful scenario the stub takes part in (WireMock's): it answers only while the
    /// scenario is in `requiredState` (when given), and moves it to `newState` (when given).
    public var scenario: String?
    /// The state every scenario starts in, and a reset puts it back in (WireMock's name for it).
    public static let startedState = "Started"
    /// The scenario state it answers in; any state when nil.
    public var requiredState: String?
    /// The state it moves its scenario to once it has answered; unchanged when nil.
    public var newState: String?

    /// The priority of a stub that names none.
    public static let defaultPriority = 5

    /// A stub from its parts; `requiredState` and `newState` need a `scenario` (the server refuses them without).
    public init(
        match: RequestPattern = RequestPattern(), answer: StubResponse = StubResponse(),
        priority: Int = StubDefinition.defaultPriority,
        times: Int? = nil, scenario: String? = nil, requiredState: String? = nil, newState: String? = nil
    ) {
        self.match = match
        self.answer = answer
        self.priority = priority
        self.times = times
        self.scenario = scenario
        self.requiredState = requiredState
        self.newState = newState
    }

    enum Key {
        static let match = "match", answer = "answer", priority = "priority", times = "times", scenario = "scenario",
            requiredState = "requiredState", newState = "newState"
        static let all = [match, answer, priority, times, scenario, requiredState, newState]
    }

    /// Reads a stub definition's JSON, refusing unknown keys and wrong types with the field that is wrong.
    public init(json: JSONValue) throws(WireProblem) {
        guard case .object(let root) = json else {
            throw WireProblem(field: "stub", message: "expected an object with match and answer")
        }
        try WireProblem.only(root, Key.all, at: "")
        self.init()
        match = try RequestPattern(json: root[Key.match] ?? .object([:]), field: Key.match)
        answer = try StubResponse(json: root[Key.answer] ?? .object([:]), field: Key.answer)
        priority = try WireProblem.integer(root[Key.priority], Key.priority) ?? Self.defaultPriority
        if let value = root[Key.times] {
            guard let number = value.intValue, number > 0 else {
                throw WireProblem(field: Key.times, message: "expected a whole number above 0")
            }
            times = number
        }
        scenario = try WireProblem.string(root[Key.scenario], Key.scenario)
        requiredState = try WireProblem.string(root[Key.requiredState], Key.requiredState)
        newState = try WireProblem.string(root[Key.newState], Key.newState)
        if scenario == nil, requiredState != nil || newState != nil {
            throw WireProblem(
                field: requiredState != nil ? Key.requiredState : Key.newState, message: "needs a scenario")
        }
    }

    /// The definition as `POST /__mockstack/stubs` takes it; keys left at their defaults are left out.
    public var json: JSONValue {
        var object: JSONObject = [
            Key.match: match.json, Key.answer: answer.json, Key.priority: .number(JSONNumber(priority)),
        ]
        if let times { object[Key.times] = .number(JSONNumber(times)) }
        if let scenario { object[Key.scenario] = .string(scenario) }
        if let requiredState { object[Key.requiredState] = .string(requiredState) }
        if let newState { object[Key.newState] = .string(newState) }
        return .object(object)
    }
}
