public import MockStackWire

/// A runtime stub (`POST /__mockstack/stubs`), typed: the definition the server reads
/// (``StubDefinition``, from MockStackWire, which spells each JSON key once for both sides) —
/// which requests it takes (``RequestPattern``), what it answers (``StubResponse``), its
/// priority and hit limit.
///
/// ```swift
/// // Fail the first two calls with a reset, then let the app answer.
/// try await mock.stub(.post("/feathers/messages"), .fault(.reset), times: 2)
/// // Any Hello call, whatever route reached it, whose Name parameter starts with "Ann".
/// try await mock.stub(RequestPattern(query: [.init("name", .matches("Ann.*"))], operation: "Hello"), .status(503))
/// ```
public typealias MockStub = StubDefinition

extension StubDefinition {
    /// Which requests a stub takes.
    public typealias Match = RequestPattern
    /// What a stub answers.
    public typealias Answer = StubResponse
}
