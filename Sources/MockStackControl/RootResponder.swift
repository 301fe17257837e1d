package import MockStackCore

/// The main port: the control plane, sessions, then stubs and the apps by mount, then a 404
/// naming what is mounted.
package struct RootResponder: Responder {
    let controlPlane: ControlPlane
    let registry: AppRegistry
    let sessions: SessionStore
    let pipeline: AppPipeline
    let access: AdminAccess
    /// One loop's copy of the registry's table (``forLoop()``); nil for a responder any thread
    /// may call, which reads the table under the registry's lock.
    private let snapshot: RegistrySnapshot?

    /// A responder any thread may call; the server gives each loop its own (``forLoop()``).
    package init(
        controlPlane: ControlPlane, registry: AppRegistry, sessions: SessionStore, pipeline: AppPipeline,
        access: AdminAccess
    ) {
        self.init(
            controlPlane: controlPlane, registry: registry, sessions: sessions, pipeline: pipeline, access: access,
            snapshot: nil)
    }

    private init(
        controlPlane: ControlPlane, registry: AppRegistry, sessions: SessionStore, pipeline: AppPipeline,
        access: AdminAccess, snapshot: RegistrySnapshot?
    ) {
        self.controlPlane = controlPlane
        self.registry = registry
        self.sessions = sessions
        self.pipeline = pipeline
        self.access = access
        self.snapshot = snapshot
    }

    /// The same responder for one loop's requests alone: it reads the registry through a
    /// snapshot of its own, without a lock while the table stays as it is.
    package func forLoop() -> RootResponder {
        RootResponder(
            controlPlane: controlPlane, registry: registry, sessions: sessions, pipeline: pipeline, access: access,
            snapshot: RegistrySnapshot(of: registry))
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        // Read once: each read from the request's box is a retain and a release.
        let path = request.path
        if MountTable.mount(ControlPlane.prefixBytes, owns: path) {
            return refusal(ofControl: request) ?? controlPlane.respond(to: request)
        }
        if MountTable.mount(SessionStore.prefixBytes, owns: path) {
            return respondInSession(request)
        }
        let mounts = snapshot?.current ?? registry.current
        guard let mounted = mounts.entry(owning: path) else {
            return respondUnmounted(request, mounts: mounts.entries.map(\.mount), session: nil)
        }
        return pipeline.respond(to: request, app: registry.app(for: mounted), mount: nil, session: nil)
    }

    /// `/__session/{id}/…`: the rest of the path against the session's own apps, journal and
    /// control plane; the session is made on first use.
    private func respondInSession(_ request: HTTPRequest) -> HTTPResponse {
        let afterPrefix = request.path.utf8.dropFirst(SessionStore.prefix.utf8.count + 1)
        let id = Substring(afterPrefix).prefix { $0 != "/" }
        guard Session.isValidId(id) else {
            let shown = id.isEmpty ? "an empty id" : "'\(id)'"
            return PlainError.response(
                400,
                """
                Session id: expected 1 to 64 letters, digits, '.', '_', '-' or '~' after \(SessionStore.prefix)/, \
                found \(shown)
                """
            )
        }
        let inner = request.routed(toMount: SessionStore.prefix + "/" + id)
        let isControl = MountTable.mount(ControlPlane.prefixBytes, owns: inner.path)
        // Refused before the session is made: a request without the token changes nothing.
        if isControl, let refused = refusal(ofControl: inner) { return refused }
        let session = sessions.session(String(id)) { registry.apps }
        if isControl { return controlPlane.scoped(to: session).respond(to: inner) }
        guard let app = session.mounts.app(owning: inner.path) else {
            return respondUnmounted(inner, mounts: session.apps.map(\.mount), session: session)
        }
        return pipeline.respond(to: inner, app: app, mount: nil, session: session)
    }

    /// The 401 for a control-plane request ``AdminAccess`` does not admit; nil when it may go on.
    private func refusal(ofControl request: HTTPRequest) -> HTTPResponse? {
        access.admits(request, endpoint: request.path.dropFirst(ControlPlane.prefix.count)) ? nil : access.refusal
    }

    /// The 404 naming the mounts, unless a stub or the fall-through takes the request.
    private func respondUnmounted(
        _ request: HTTPRequest, mounts: @autoclosure () -> [String],
        session: Session?
    ) -> HTTPResponse {
        pipeline.respondUnmounted(to: request, session: session) {
            let mounted = mounts().sorted().joined(separator: ", ")
            let listed = mounted.isEmpty ? "none" : mounted
            return PlainError.response(404, "No app is mounted at \(request.path); mounted: \(listed)")
        }
    }
}

/// An exposed port: one app answering at the root, for clients that cannot carry a base path.
package struct ExposedAppResponder: Responder {
    let appName: String
    let registry: AppRegistry
    let pipeline: AppPipeline
    /// One loop's copy of the registry's table (``forLoop()``); nil for a responder any thread
    /// may call.
    private let snapshot: RegistrySnapshot?

    /// A responder any thread may call; the server gives each loop its own (``forLoop()``).
    package init(appName: String, registry: AppRegistry, pipeline: AppPipeline) {
        self.init(appName: appName, registry: registry, pipeline: pipeline, snapshot: nil)
    }

    private init(appName: String, registry: AppRegistry, pipeline: AppPipeline, snapshot: RegistrySnapshot?) {
        self.appName = appName
        self.registry = registry
        self.pipeline = pipeline
        self.snapshot = snapshot
    }

    /// The same responder for one loop's requests alone, reading the registry through a
    /// snapshot of its own.
    package func forLoop() -> ExposedAppResponder {
        ExposedAppResponder(
            appName: appName, registry: registry, pipeline: pipeline, snapshot: RegistrySnapshot(of: registry))
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let mounted = (snapshot?.current ?? registry.current).entry(named: appName) else {
            return pipeline.respondUnmounted(to: request) { PlainError.response(404, "No route \(request.path)") }
        }
        return pipeline.respond(to: request, app: registry.app(for: mounted), mount: "")
    }
}
