import MockStackCore

/// The control plane's endpoints, declared once (README's "Control plane" table): in the order
/// they are tried, an exact path before the variable one it would also match.
extension ControlPlane {
    static let routes: [ControlRoute] = [
        ControlRoute(
            .exact(["", "/"]),
            [
                .reading { plane, request, _ in plane.controlPage(request) }
            ]),
        // Open to probes without the token; they learn only that it is up.
        ControlRoute(
            "/health",
            [
                .reading { plane, request, _ in
                    .json(200, plane.access.authorizes(request) ? plane.health : ["status": "ok"])
                }
            ]),
        ControlRoute(
            "/apps",
            [
                .reading { plane, _, _ in
                    var listing: JSONObject = ["apps": .array(plane.apps.map(plane.describe))]
                    if !plane.notLoaded.isEmpty { listing["notLoaded"] = .array(plane.notLoaded.map(JSONValue.string)) }
                    return .json(200, .object(listing))
                }
            ]),
        ControlRoute("/requests/count", [.on(.post) { plane, request, _ in plane.verify(request, counting: true) }]),
        ControlRoute("/requests/find", [.on(.post) { plane, request, _ in plane.verify(request, counting: false) }]),
        ControlRoute(
            "/requests/wait",
            [
                .on(.post) { plane, request, _ in plane.waitForRequest(request) },
                .reading { plane, _, _ in
                    .json(
                        200,
                        [
                            "waiting": .number(JSONNumber(plane.waitingCount)),
                            "limit": .number(JSONNumber(plane.waits.limit)),
                        ])
                },
            ]),
        ControlRoute(
            "/requests/unmatched",
            [
                .reading { plane, request, _ in
                    plane.requests(request, unmatchedOnly: true)
                }
            ]),
        ControlRoute(
            "/requests",
            [
                .reading { plane, request, _ in plane.requests(request) },
                .on(.delete) { plane, _, _ in
                    plane.scopedJournal.clear()
                    return HTTPResponse(status: 204)
                },
            ]),
        ControlRoute("/reset", [.on(.post) { plane, request, _ in plane.reset(request) }]),
        ControlRoute(
            "/stubs",
            [
                .reading { plane, _, _ in plane.listStubs() },
                .on(.post) { plane, request, _ in plane.addStub(request) },
                .on(.delete) { plane, request, _ in plane.removeStubs(request) },
            ]),
        ControlRoute("/stubs/snapshot", [.on(.post) { plane, request, _ in plane.snapshot(request) }]),
        ControlRoute(
            .under("/stubs/", allowsEmpty: true),
            [
                .on(.delete) { plane, _, id in
                    let removed = plane.stubs.remove(id: id, session: plane.session?.id)
                    return removed ? HTTPResponse(status: 204) : PlainError.response(404, "No stub '\(id)'")
                }
            ]),
        ControlRoute(
            "/scenarios",
            [
                .reading { plane, _, _ in
                    .json(
                        200,
                        ["scenarios": .array(plane.stubs.scenarios(session: plane.session?.id).map(plane.describe))])
                }
            ]),
        ControlRoute(
            "/scenarios/reset",
            [
                .on(.post) { plane, _, _ in
                    plane.stubs.resetScenarios(session: plane.session?.id)
                    return HTTPResponse(status: 204)
                }
            ]),
        ControlRoute(
            .variable(prefix: "/scenarios/", suffix: "/state", allowsEmpty: false),
            [
                .on(.put) { plane, request, name in plane.setScenario(PercentDecoding.decode(name), request) }
            ]),
        ControlRoute("/sockets", [.reading { plane, request, _ in plane.listSockets(request) }]),
        ControlRoute(
            "/sockets/activity",
            [
                .reading { plane, request, _ in plane.socketActivity(request) },
                .on(.delete) { plane, _, _ in
                    plane.scopedRealtime.clear()
                    return HTTPResponse(status: 204)
                },
            ]),
        ControlRoute(
            .under("/sockets/", allowsEmpty: false),
            [
                .on(.delete) { plane, _, id in
                    plane.disconnectSocket(id)
                }
            ]),
        ControlRoute("/events", [.on(.post) { plane, request, _ in plane.pushEvent(request) }]),
        ControlRoute("/events/delay", [.on(.put) { plane, request, _ in plane.delayEvents(request) }]),
        ControlRoute(
            "/server-events",
            [
                .reading { plane, request, _ in plane.listServerEventSubscribers(request) },
                .on(.post) { plane, request, _ in plane.sendServerEvent(request) },
            ]),
        ControlRoute(
            "/server-events/wait", [.on(.post) { plane, request, _ in plane.waitForServerEventSubscribers(request) }]),
        ControlRoute(
            "/sessions", wholeServerOnly: true,
            [
                .reading { plane, _, _ in
                    .json(
                        200,
                        [
                            "sessions": .array(plane.sessions.all.map(plane.describe)),
                            "limit": .number(JSONNumber(plane.sessions.limit)),
                        ])
                }
            ]),
        ControlRoute(
            .under("/sessions/", allowsEmpty: true), wholeServerOnly: true,
            [
                .on(.delete) { plane, _, id in
                    plane.sessions.remove(id)
                        ? HTTPResponse(status: 204) : PlainError.response(404, "No session '\(id)'")
                }
            ]),
        // Open without the token (``AdminAccess``): a client trusts the CA before it can send
        // the token over HTTPS.
        ControlRoute(
            "/tls/ca.pem", wholeServerOnly: true, [.reading { plane, _, _ in plane.certificateAuthorityAnswer }]),
    ]

    /// The endpoints' first segments, as the `404` for an unknown endpoint lists them.
    static let endpoints: [(section: String, wholeServerOnly: Bool)] = routes.reduce(into: []) { sections, route in
        let section = String(route.section)
        if !section.isEmpty, !sections.contains(where: { $0.section == section }) {
            sections.append((section, route.wholeServerOnly))
        }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let endpoint = String(request.path.dropFirst(Self.prefix.count))
        for route in Self.routes where session == nil || !route.wholeServerOnly {
            guard let variable = route.variable(in: endpoint) else { continue }
            guard let handler = route.handler(for: request.method) else {
                return PlainError.methodNotAllowed(request.method, path: request.path, allowed: route.allowed)
            }
            return handler(self, request, variable)
        }
        let available = Self.endpoints.filter { session == nil || !$0.wholeServerOnly }
            .map { "\(Self.prefix)/\($0.section)" }.joined(separator: ", ")
        return PlainError.response(404, "No control endpoint \(request.path); available: \(available)")
    }
}
