import MockStackCore

/// The main port: the control plane, then stubs and the apps by mount, then a 404 naming what
/// is mounted.
struct RootResponder: Responder {
    let controlPlane: ControlPlane
    let mounts: MountTable
    let pipeline: AppPipeline

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if MountTable.mount(ControlPlane.prefix, owns: request.path) {
            return controlPlane.respond(to: request)
        }
        let app = mounts.app(owning: request.path)
        return pipeline.respond(to: request, app: app, mount: app?.mount ?? "") {
            let mounted = mounts.apps.map(\.mount).sorted().joined(separator: ", ")
            return PlainError.response(404, "No app is mounted at \(request.path); mounted: \(mounted.isEmpty ? "none" : mounted)")
        }
    }
}

/// An exposed port: one app answering at the root, for clients that cannot carry a base path.
struct ExposedAppResponder: Responder {
    let app: any MockApp
    let pipeline: AppPipeline

    func respond(to request: HTTPRequest) -> HTTPResponse {
        pipeline.respond(to: request, app: app, mount: "") { PlainError.response(404, "No route \(request.path)") }
    }
}

/// What every app request goes through, on any port: the fault headers' checks, then a
/// runtime stub or the app (journaled either way), then the delay or fault the request asked for.
struct AppPipeline: Sendable {
    let journal: RequestJournal
    let stubs: StubStore

    /// - Parameter otherwise: the answer when neither a stub nor an app takes the request.
    func respond(to request: HTTPRequest, app: (any MockApp)?, mount: String, otherwise: () -> HTTPResponse) -> HTTPResponse {
        if let refusal = RequestFaults.refusal(request) { return refusal }
        if let stubbed = stubs.answer(request, app: app?.name) {
            journal.record(app: app?.name ?? "", request: request, response: stubbed.response, stub: stubbed.stub, duration: .zero)
            return RequestFaults.applied(to: stubbed.response, request)
        }
        guard let app else { return otherwise() }
        let routed = request.routed(toMount: mount)
        guard journal.isEnabled else { return RequestFaults.applied(to: app.respond(to: routed), request) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = app.respond(to: routed)
        journal.record(app: app.name, request: request, response: response, duration: clock.now - start)
        return RequestFaults.applied(to: response, request)
    }
}
