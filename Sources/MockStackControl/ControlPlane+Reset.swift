import MockStackCore

/// `POST reset` in its three scopes.
extension ControlPlane {
    /// `POST reset[?app=NAME | ?session=ID]`, in three scopes:
    /// - whole (no parameter): every app of this scope back to its fixture state, its stubs
    ///   removed (the server's `--stubs` files loaded again, hits at 0), its scenarios started
    ///   over, its journal emptied and the waits on it answered 409, random delays started
    ///   over; the server's also drops every session (their waits answered 410);
    /// - one app (`app`): that app's state, its stubs (then its `--stubs` files' again) and its
    ///   journal entries in this scope, nothing else (the server's never touches a session's);
    /// - one session (`session`, on the server's control plane): what the session's own
    ///   whole reset does.
    func reset(_ request: HTTPRequest) -> HTTPResponse {
        let parameters = QueryParameters(request.query)
        let known = session == nil ? ["app", "session"] : ["app"]
        for name in parameters.names where !known.contains(name) {
            return PlainError.response(
                400, "Unknown parameter '\(name)' (parameters: \(known.joined(separator: ", ")))")
        }
        if let id = parameters["session"] {
            guard parameters["app"] == nil else { return PlainError.response(400, "Give app or session, not both") }
            guard let found = sessions.existing(id) else { return PlainError.response(404, "No session '\(id)'") }
            var inner = request
            inner.query = nil
            return scoped(to: found).reset(inner)
        }
        if let name = parameters["app"] {
            let mounted = mounted
            guard let app = mounted.first(where: { $0.name == name }) else {
                return PlainError.response(
                    404, "No app named '\(name)' (apps: \(mounted.map(\.name).joined(separator: ", ")))")
            }
            app.reset()
            stubs.removeAll(app: name, session: session?.id)
            if session == nil { stubs.restoreFileStubs(app: name) }
            let scope = session?.id
            scopedJournal.remove { $0.app == name && $0.session == scope }
            scopedRealtime.remove { $0.app == name && $0.session == scope }
            return .json(200, ["reset": [.string(name)]])
        }
        let mounted = mounted
        for app in mounted { app.reset() }
        stubs.removeAll(session: session?.id)
        if session == nil { stubs.restoreFileStubs(app: nil) }
        scopedJournal.clear()
        scopedJournal.endWaits(with: WaitEnding.reset)
        scopedRealtime.clear()
        if let session {
            session.faults.reseed()
        } else {
            sessions.removeAll(because: "dropped by a reset of the whole server")
            faults.reseed()
        }
        return .json(200, ["reset": .array(mounted.map { .string($0.name) })])
    }
}
