import MockStackCore

/// The main port: the control plane, then runtime stubs, then the apps by mount (each answer
/// journaled), then a 404 naming what is mounted.
struct RootResponder: Responder {
    let controlPlane: ControlPlane
    let mounts: MountTable
    let journal: RequestJournal
    let stubs: StubStore

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if MountTable.mount(ControlPlane.prefix, owns: request.path) {
            return controlPlane.respond(to: request)
        }
        let app = mounts.app(owning: request.path)
        if let refusal = RequestFaults.refusal(request) { return refusal }
        if let stubbed = stubs.answer(request, app: app?.name) {
            journal.record(app: app?.name ?? "", request: request, response: stubbed.response, stub: stubbed.stub, duration: .zero)
            return stubbed.response
        }
        if let app {
            return RequestFaults.applied(to: journal.answer(request, by: app, routed: request.routed(toMount: app.mount)), request)
        }
        let mounted = mounts.apps.map(\.mount).sorted().joined(separator: ", ")
        return PlainError.response(404, "No app is mounted at \(request.path); mounted: \(mounted.isEmpty ? "none" : mounted)")
    }
}

/// An exposed port: one app answering at the root, for clients that cannot carry a base path.
struct ExposedAppResponder: Responder {
    let app: any MockApp
    let journal: RequestJournal
    let stubs: StubStore

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if let refusal = RequestFaults.refusal(request) { return refusal }
        if let stubbed = stubs.answer(request, app: app.name) {
            journal.record(app: app.name, request: request, response: stubbed.response, stub: stubbed.stub, duration: .zero)
            return stubbed.response
        }
        return RequestFaults.applied(to: journal.answer(request, by: app, routed: request.routed(toMount: "")), request)
    }
}

extension RequestJournal {
    /// The app's answer, recorded with how long it took (when the journal is on).
    func answer(_ request: HTTPRequest, by app: any MockApp, routed: HTTPRequest) -> HTTPResponse {
        guard isEnabled else { return app.respond(to: routed) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = app.respond(to: routed)
        record(app: app.name, request: request, response: response, duration: clock.now - start)
        return response
    }
}
