import Foundation
import MockStackJSON
public import MockStackWire

/// What `POST /__mockstack/stubs/snapshot` made of the journal: stubs that answer its requests as
/// they were answered, and the requests it left out with why.
///
/// ```swift
/// // One exploratory run against a live host (serve --proxy-unmatched https://test.servicestack.net) …
/// let snapshot = try await mock.snapshotStubs(matching: RequestPattern(pathPrefix: "/api/"))
/// try await mock.exportStubs(to: URL(fileURLWithPath: "Tests/Stubs/hello"))  // … kept for one test
/// ```
public struct StubSnapshotResult: Sendable {
    /// A request the snapshot left out.
    public struct Skipped: Sendable, Equatable {
        /// The journal entry's id.
        public var request: Int
        /// `its answer was broken on purpose (a fault)`.
        public var reason: String
    }

    /// The stubs' definitions, in journal order.
    public var definitions: [StubDefinition]
    /// The stubs added to the server (or session), in the same order; empty when not persisted.
    public var handles: [MockStubHandle]
    /// The requests left out.
    public var skipped: [Skipped]
}

extension MockStackControlling {
    /// Turns the journal's requests into stubs, as WireMock's snapshot recording does (README.md,
    /// Snapshots): those `pattern` matches, the newest `limit` of them.
    /// - Parameters:
    ///   - captureHeaders: request headers the stubs also match, by name;
    ///   - repeatsAsScenarios: a request made several times answers each recorded answer in turn
    ///     (a scenario), the last from then on; false keeps the first answer alone;
    ///   - persist: add the stubs to this scope (else only return them).
    @discardableResult
    public func snapshotStubs(
        matching pattern: RequestPattern = RequestPattern(), limit: Int? = nil, captureHeaders: [String] = [],
        repeatsAsScenarios: Bool = true, persist: Bool = true
    ) async throws -> StubSnapshotResult {
        var options: JSONObject = [
            "match": pattern.json, "repeatsAsScenarios": .bool(repeatsAsScenarios), "persist": .bool(persist),
        ]
        if let limit { options["limit"] = .number(JSONNumber(limit)) }
        if !captureHeaders.isEmpty { options["captureHeaders"] = .array(captureHeaders.map { .string($0) }) }
        let answer = try await call("POST", "stubs/snapshot", body: .object(options))
        let stubs = answer["stubs"]?.arrayValue ?? []
        let endpoint = ControlEndpoint(controlBase: controlBase, adminToken: adminToken)
        return StubSnapshotResult(
            definitions: stubs.compactMap { try? StubDefinition(json: persist ? $0["definition"] ?? .null : $0) },
            handles: persist ? stubs.map { MockStubHandle(id: $0["id"]?.stringValue ?? "", control: endpoint) } : [],
            skipped: (answer["skipped"]?.arrayValue ?? []).map {
                StubSnapshotResult.Skipped(
                    request: $0["request"]?.intValue ?? 0, reason: $0["reason"]?.stringValue ?? "")
            })
    }
}
