import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The behaviour names a manifest may use, offered and read from one declaration.
@Suite struct BehaviourNameTests {
    /// The problems of a one-operation app whose manifest names `behaviour` for it.
    static func problems(behaviour: String) -> [String] {
        let metadata = #"{"config": {}, "namespaces": [], "types": [], "operations": [{"request": {"name": "Ping"}}]}"#
        let manifest = #"{"kind": "servicestack", "metadata": "metadata.json", "#
            + #""operations": {"Ping": {"behaviour": "\#(behaviour)"}}}"#
        do {
            _ = try AppLoader(kinds: [ServiceStackAppKind()])
                .load(from: InMemoryFixtureSource(files: ["demo/app.json": manifest, "demo/metadata.json": metadata]))
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func anUnknownNameIsReportedWithEveryNameInOrder() {
        #expect(Self.problems(behaviour: "echoo") == [
            "Fixtures/demo/app.json:1:92: /operations/Ping/behaviour: unknown behaviour 'echoo' "
                + "(expected one of: echo, void, template, rawBody, throwType, error, validate, upload, "
                + "authenticate, accessToken, createJwt, createRefreshJwt, invalidateToken, autoQuery, techStacks, "
                + "chatCompletion)",
        ])
    }

    @Test(arguments: [BehaviourName.echo, .void, .throwType, .authenticate, .accessToken, .createJwt, .createRefreshJwt,
                      .invalidateToken])
    func aNameThatNeedsNoSettingsLoads(name: BehaviourName) {
        #expect(Self.problems(behaviour: name.rawValue) == [])
    }

    @Test func namesAreTheManifestSpelling() {
        #expect(BehaviourName.allCases.map(\.rawValue).allSatisfy { BehaviourName(rawValue: $0) != nil })
        #expect(BehaviourName(rawValue: "Echo") == nil)
        #expect(BehaviourName(rawValue: "createRefreshJwt") == .createRefreshJwt)
    }
}
