import MockStackCore

/// The main port: the control plane, then the apps by mount, then a 404 naming what is mounted.
struct RootResponder: Responder {
    let controlPlane: ControlPlane
    let mounts: MountTable

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if MountTable.mount(ControlPlane.prefix, owns: request.path) {
            return controlPlane.respond(to: request)
        }
        if let app = mounts.app(owning: request.path) {
            return app.respond(to: request.routed(toMount: app.mount))
        }
        let mounted = mounts.apps.map(\.mount).sorted().joined(separator: ", ")
        return PlainError.response(404, "No app is mounted at \(request.path); mounted: \(mounted.isEmpty ? "none" : mounted)")
    }
}

/// An exposed port: one app answering at the root, for clients that cannot carry a base path.
struct ExposedAppResponder: Responder {
    let app: any MockApp

    func respond(to request: HTTPRequest) -> HTTPResponse {
        app.respond(to: request.routed(toMount: ""))
    }
}
