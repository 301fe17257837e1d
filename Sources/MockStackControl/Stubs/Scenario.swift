import MockStackWire

/// A stateful scenario, as WireMock has them: stubs that name it answer only in their
/// `requiredState` and move it to their `newState`. Every scenario starts in ``started``, and
/// a reset puts it back there.
struct Scenario: Sendable, Equatable {
    /// The state every scenario starts in (``StubDefinition/startedState``).
    static let started = StubDefinition.startedState

    /// A scenario is per scope: the server's own stubs share one, each session has its own.
    struct Key: Hashable, Sendable {
        var session: String?
        var name: String
    }

    var name: String
    var state: String
    /// ``started`` and every state its stubs require or move to, in the order first named.
    var possibleStates: [String]
}
