import Foundation
import MockStackJSON
public import MockStackWire

/// A stub added to a running mockstack (or a session): its id, and what it has done since.
///
/// ```swift
/// let flaky = try await mock.stub(.post("/test/api/Hello"), .fault(.reset), times: 2)
/// // … exercise the client …
/// #expect(try await flaky.hits() == 2)
/// ```
public struct MockStubHandle: Sendable, Equatable, CustomStringConvertible {
    /// `stub-1`, as `GET /__mockstack/stubs` lists it.
    public let id: String
    let control: ControlEndpoint

    /// The stub's id.
    public var description: String { id }

    /// The same stub: the same id on the same control plane.
    public static func == (lhs: MockStubHandle, rhs: MockStubHandle) -> Bool {
        lhs.id == rhs.id && lhs.control.controlBase == rhs.control.controlBase
    }

    /// The stub as the server lists it now.
    public func listed() async throws -> ListedStub {
        guard let found = try await control.stubs().first(where: { $0.id == id }) else {
            throw MockStackControlError(status: 404, message: "No stub '\(id)' (removed, or its scope was reset)")
        }
        return found
    }

    /// How many requests it answered.
    public func hits() async throws -> Int { try await listed().hits }

    /// Why the journal's latest requests did not match it, while it never has.
    public func nearMisses() async throws -> [ListedStub.NearMiss] { try await listed().nearMisses }

    /// Removes it (`DELETE stubs/ID`).
    public func remove() async throws { try await control.removeStubs(id: id) }
}

/// Where a handle reaches the control plane that holds its stub.
struct ControlEndpoint: MockStackControlling {
    let controlBase: URL
    let adminToken: String?
}

/// A stub as `GET /__mockstack/stubs` lists it.
public struct ListedStub: Sendable, Equatable {
    /// A journaled request it did not match, and the first reason why.
    public struct NearMiss: Sendable, Equatable {
        /// The journal entry's id.
        public var request: Int
        /// The journal entry's method.
        public var method: String
        /// The journal entry's path.
        public var path: String
        /// `"method GET is not POST"`.
        public var reason: String
    }

    /// `stub-1`: the id the server gave it.
    public var id: String
    /// Its priority: among stubs that match, the lowest number answers.
    public var priority: Int
    /// How many requests it answers before it is exhausted; nil for no limit.
    public var times: Int?
    /// How many requests it has answered.
    public var hits: Int
    /// Whether it has answered its `times` and answers no more.
    public var exhausted: Bool
    /// The definition as the server read it back (nil only if it could not be read).
    public var definition: StubDefinition?
    /// Empty once it has matched.
    public var nearMisses: [NearMiss]
    /// The file `serve --stubs` loaded it from (`stubs/login.json`); nil for one added at runtime.
    public var file: String?

    init(_ json: JSONValue) {
        id = json["id"]?.stringValue ?? ""
        priority = json["priority"]?.intValue ?? StubDefinition.defaultPriority
        times = json["times"]?.intValue
        hits = json["hits"]?.intValue ?? 0
        exhausted = json["exhausted"]?.boolValue ?? false
        definition = json["definition"].flatMap { try? StubDefinition(json: $0) }
        file = json["file"]?.stringValue
        nearMisses =
            json["nearMisses"]?.arrayValue?.map { miss in
                NearMiss(
                    request: miss["request"]?.intValue ?? 0, method: miss["method"]?.stringValue ?? "",
                    path: miss["path"]?.stringValue ?? "",
                    reason: miss["reason"]?.stringValue ?? "")
            } ?? []
    }
}

/// A live session as `GET /__mockstack/sessions` lists it.
public struct ListedSession: Sendable, Equatable {
    /// The session's id.
    public var id: String
    /// `/__session/{id}`.
    public var prefix: String
    /// ISO-8601, when it was made.
    public var created: String
    /// Entries in its journal.
    public var requests: Int

    init(_ json: JSONValue) {
        id = json["id"]?.stringValue ?? ""
        prefix = json["prefix"]?.stringValue ?? ""
        created = json["created"]?.stringValue ?? ""
        requests = json["requests"]?.intValue ?? 0
    }
}
