import MockStackCore
import MockStackWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The test-control plane under `/__mockstack/` (docs/architecture.md#the-control-plane): everything a test uses to
/// steer or inspect the server, never inside an app's namespace. Answers in ``PlainError``'s
/// JSON format.
package struct ControlPlane: Sendable {
    static let prefix = "/__mockstack"
    static let prefixBytes = Array(prefix.utf8)

    let registry: AppRegistry
    let journal: RequestJournal
    let stubs: StubStore
    let sessions: SessionStore
    let faults: RequestFaults
    let exposedPorts: @Sendable () -> [String: Int]
    /// Who may see more than the health probe's `ok` (the gate itself is ``RootResponder``'s).
    let access: AdminAccess
    /// What `serve --watch` last did, when it watches.
    let lastReload: @Sendable () -> ReloadOutcome?
    /// How many requests may wait for journal entries at once (`requests/wait`), server-wide.
    let waits: WaitBudget
    /// What the apps' sockets did (`sockets/activity`); the apps report to it themselves.
    let realtime: RealtimeJournal
    /// The apps the fixtures hold that the server was started without (``ReadyEvent/notLoaded``).
    let notLoaded: [String]
    /// The CA that signed the HTTPS certificate, as PEM text, when the server made it
    /// (`serve --https-port` without `--tls-cert`): `GET tls/ca.pem`.
    let certificateAuthority: String?
    /// The session this control plane speaks for (`/__session/{id}/__mockstack/…`): its apps,
    /// journal and stubs only. `nil`: the whole server.
    private(set) var session: Session?

    package init(
        registry: AppRegistry, journal: RequestJournal, stubs: StubStore, sessions: SessionStore, faults: RequestFaults,
        access: AdminAccess,
        exposedPorts: @escaping @Sendable () -> [String: Int],
        lastReload: @escaping @Sendable () -> ReloadOutcome? = { nil },
        waits: WaitBudget = WaitBudget(), realtime: RealtimeJournal = RealtimeJournal(), notLoaded: [String] = [],
        certificateAuthority: String? = nil
    ) {
        self.certificateAuthority = certificateAuthority
        self.realtime = realtime
        self.notLoaded = notLoaded
        self.registry = registry
        self.journal = journal
        self.stubs = stubs
        self.sessions = sessions
        self.faults = faults
        self.access = access
        self.exposedPorts = exposedPorts
        self.lastReload = lastReload
        self.waits = waits
    }

    /// The same endpoints for one session.
    func scoped(to session: Session) -> ControlPlane {
        var scoped = self
        scoped.session = session
        return scoped
    }

    /// This scope's apps; the server's not built yet are built now.
    var apps: [any MockApp] { session?.apps ?? registry.apps }
    /// This scope's apps as they stand, building none: a session's are always built.
    var mounted: [MountedApp] { session.map { $0.apps.map(MountedApp.built) } ?? registry.mounted }
    var scopedJournal: RequestJournal { session?.journal ?? journal }
    var scopedRealtime: RealtimeJournal { session?.realtime ?? realtime }

    /// `{"status": "ok"}`, and under `serve --watch` what the last reload did.
    var health: JSONValue {
        var object: JSONObject = ["status": "ok"]
        if let reload = lastReload() {
            object["lastReload"] = [
                "time": .string(reload.time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
                "ok": .bool(reload.problems.isEmpty),
                "reloaded": .array(reload.reloaded.map(JSONValue.string)),
                "problems": .array(reload.problems.map(JSONValue.string)),
            ]
        }
        return .object(object)
    }

    func describe(_ session: Session) -> JSONValue {
        [
            "id": .string(session.id),
            "prefix": .string(session.prefix),
            "created": .string(session.created.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "requests": .number(JSONNumber(session.journal.count)),
        ]
    }

    func describe(_ app: any MockApp) -> JSONValue {
        var object: JSONObject = [
            "name": .string(app.name),
            "kind": .string(app.kind),
            "mount": .string(app.mount),
        ]
        if let port = exposedPorts()[app.name] { object["exposedPort"] = .number(JSONNumber(port)) }
        object["routes"] = .array(
            app.routes.map { route in
                [
                    "name": .string(route.name), "methods": .array(route.methods.map(JSONValue.string)),
                    "path": .string(route.path),
                ]
            })
        return .object(object)
    }
}
