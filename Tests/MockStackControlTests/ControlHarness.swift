import MockStackControl
import MockStackCore
import Synchronization
import Testing

/// An app of fixed routes for the control plane's tests: each route answers 200 with its
/// operation's name, anything else a 404 without one, as the real apps do.
struct RouteApp: MockApp {
    let name: String
    let mount: String
    var routes: [RouteDescription]
    var kind: String { "test" }

    /// How many requests the app itself answered (a stub answers instead of it).
    let answered = Counter()
    /// How often it was asked for a request's operation without answering it.
    let asked = Counter()

    func respond(to request: HTTPRequest) -> HTTPResponse {
        answered.add()
        guard let name = routeName(for: request) else { return PlainError.response(404, "No route \(request.path)") }
        var response = HTTPResponse.json(200, ["operation": .string(name)])
        response.operation = name
        return response
    }

    func operation(for request: HTTPRequest) -> String? {
        asked.add()
        return routeName(for: request)
    }

    private func routeName(for request: HTTPRequest) -> String? {
        routes.first { Self.path($0.path, matches: request.path) && ($0.methods.contains("ANY") || $0.methods.contains(request.method.rawValue)) }?.name
    }

    /// Segment by segment, `{Name}` and `:id` taking any one.
    private static func path(_ template: String, matches path: String) -> Bool {
        let wanted = template.split(separator: "/", omittingEmptySubsequences: false)
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        return wanted.count == given.count && zip(wanted, given).allSatisfy { want, got in
            want.hasPrefix(":") || want.hasPrefix("{") ? !got.isEmpty : want == got
        }
    }
}

/// A count shared by an app and its copies.
final class Counter: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// The main port's responder over plain values, with no socket: requests in, answers out.
struct ControlHarness {
    let root: RootResponder
    let registry: AppRegistry
    /// The runtime stubs, for the tests of stubs kept in files.
    let stubs: StubStore

    static let apps: [any MockApp] = [
        RouteApp(name: "test", mount: "/test", routes: [
            RouteDescription(name: "Hello", methods: ["ANY"], path: "/api/Hello"),
            RouteDescription(name: "Hello", methods: ["GET"], path: "/hello/{Name}"),
            RouteDescription(name: "Goodbye", methods: ["ANY"], path: "/api/Goodbye"),
        ]),
        RouteApp(name: "feathers", mount: "/feathers", routes: [
            RouteDescription(name: "messages", methods: ["GET", "POST"], path: "/messages"),
            RouteDescription(name: "messages", methods: ["GET", "PATCH"], path: "/messages/:id"),
        ]),
    ]

    init(apps: [any MockApp] = ControlHarness.apps, journalSize: Int = 1000, waits: WaitBudget = WaitBudget()) {
        self.init(mounted: apps.map(MountedApp.built), journalSize: journalSize, waits: waits)
    }

    /// Over mounts that may hold apps not built yet (a load cache hit's).
    init(mounted: [MountedApp], journalSize: Int = 1000, waits: WaitBudget = WaitBudget()) {
        let realtime = RealtimeJournal(capacity: journalSize)
        let registry = AppRegistry(mounted: mounted) { app in RealtimeJournal.observe(app, into: realtime) }
        self.registry = registry
        let journal = RequestJournal(capacity: journalSize)
        let stubs = StubStore(files: nil)
        self.stubs = stubs
        let sessions = SessionStore(limit: 4, journalCapacity: 100, journalBodyLimit: 1024, seed: 0, stubs: stubs, realtime: realtime)
        let faults = RequestFaults(seed: 0)
        let control = ControlPlane(registry: registry, journal: journal, stubs: stubs, sessions: sessions, faults: faults, access: .open,
                                   exposedPorts: { [:] }, waits: waits, realtime: realtime)
        root = RootResponder(controlPlane: control, registry: registry, sessions: sessions,
                             pipeline: AppPipeline(journal: journal, stubs: stubs, faults: faults), access: .open)
    }

    /// Sends a request; `json` is its body.
    @discardableResult
    func send(_ method: HTTPMethod, _ target: String, json: JSONValue? = nil, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        if json != nil { headers.set("Content-Type", "application/json") }
        return root.respond(to: HTTPRequest(method: method, target: target, headers: headers, body: json?.encoded() ?? []))
    }

    /// A control-plane answer's JSON.
    func json(_ method: HTTPMethod, _ target: String, _ body: JSONValue? = nil) -> JSONValue {
        let response = send(method, target, json: body)
        return (try? JSONParser().parse(response.body).root) ?? .null
    }

    /// JSON text as a value.
    func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)).root }

    /// Adds a stub of the pattern `match` (JSON text) answering `status`; it must be taken.
    func stub(_ match: String, status: Int = 418) throws {
        let answer = send(.post, "/__mockstack/stubs", json: try parse(#"{"match": \#(match), "answer": {"status": \#(status)}}"#))
        try #require(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    /// The message of the 400 a stub of the pattern `match` (JSON text) gets.
    func refusal(_ match: String) throws -> String? {
        let answer = send(.post, "/__mockstack/stubs", json: try parse(#"{"match": \#(match)}"#))
        #expect(answer.status == 400)
        return (try? JSONParser().parse(answer.body).root)?["message"]?.stringValue
    }

    /// Each stub's latest near miss, in the stubs' order (a stub with hits lists none).
    var nearMissReasons: [String?] {
        json(.get, "/__mockstack/stubs")["stubs"]?.arrayValue?.map { $0["nearMisses"]?.arrayValue?.first?["reason"]?.stringValue } ?? []
    }
}
