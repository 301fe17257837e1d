import MockStackWire

/// A stateful scenario the stubs of a scope take part in (`GET /__mockstack/scenarios`): the
/// state it is in, and every state its stubs name.
public struct Scenario: Sendable, Equatable {
    /// The state every scenario starts in, and returns to at a reset.
    public static let started = StubDefinition.startedState

    /// Its name, as the stubs give it (`"scenario": "cart"`).
    public var name: String
    /// The state it is in now.
    public var state: String
    /// `Started` and every state its stubs require or move it to.
    public var possibleStates: [String]

    /// A scenario as given, to compare with what the server lists.
    public init(name: String, state: String, possibleStates: [String]) {
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
    }

    init(_ json: JSONValue) {
        name = json["name"]?.stringValue ?? ""
        state = json["state"]?.stringValue ?? ""
        possibleStates = json["possibleStates"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

extension MockStackControlling {
    /// The scenarios this scope's stubs name (the server's own, or this session's), in the order
    /// the server lists them.
    public func scenarios() async throws -> [Scenario] {
        try await call("GET", "scenarios")["scenarios"]?.arrayValue?.map(Scenario.init) ?? []
    }

    /// Puts a scenario in `state` (`PUT scenarios/NAME/state`), as if a stub had moved it there.
    /// - Throws: ``MockStackControlError`` (404) when no stub of this scope names the scenario.
    public func setScenario(_ name: String, to state: String) async throws {
        _ = try await call("PUT", "scenarios/" + name + "/state", body: ["state": .string(state)])
    }

    /// Every scenario of this scope back to `Started` (`POST scenarios/reset`).
    public func resetScenarios() async throws {
        _ = try await call("POST", "scenarios/reset")
    }
}
