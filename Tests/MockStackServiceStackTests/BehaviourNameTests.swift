import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The behaviour names a manifest may use, offered and read from one declaration.
@Suite struct BehaviourNameTests {
    /// The problems of a one-operation app whose manifest names `behaviour` for it.
    static func problems(behaviour: String, settings: String = "") -> [String] {
        let metadata = #"{"config": {}, "namespaces": [], "types": [], "#
            + #""operations": [{"request": {"name": "Ping", "properties": [{"name": "Name", "type": "String"}]}}]}"#
        let manifest = #"{"kind": "servicestack", "metadata": "metadata.json", "#
            + #""operations": {"Ping": {"behaviour": "\#(behaviour)"\#(settings)}}}"#
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
                + "chatCompletion, chatToChannel, rawToChannel, objectToChannel, resetServerEvents, chatHistory, "
                + "clearChatHistory)",
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

    /// The problems of a one-operation app validating with one rule named `rule`.
    static func problems(rule: String) -> [String] {
        problems(behaviour: "validate", settings: #", "rules": [{"property": "Name", "rule": "\#(rule)"}]"#)
    }

    @Test func anUnknownValidationRuleIsReportedWithEveryRuleInOrder() {
        let problems = Self.problems(rule: "NotEmty")
        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix(
            "/operations/Ping/rules/0/rule: unknown rule 'NotEmty' (expected one of: NotEmpty, NotNull, Empty, "
                + "Null, Email, InclusiveBetween, ExclusiveBetween, GreaterThan, GreaterThanOrEqual, LessThan, "
                + "LessThanOrEqual, Equal, NotEqual, Length, MinimumLength, MaximumLength, Matches)") == true)
    }

    @Test(arguments: [ValidationRule.Check.Name.notEmpty, .notNull, .empty, .null, .email])
    func aRuleThatNeedsNoSettingsLoads(name: ValidationRule.Check.Name) {
        #expect(Self.problems(rule: name.rawValue) == [])
    }
}

