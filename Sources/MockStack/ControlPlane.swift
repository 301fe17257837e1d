import MockStackCore

/// The test-control plane under `/__mockstack/` (architecture §4): everything a test uses to
/// steer or inspect the server, never inside an app's namespace. Answers in ``PlainError``'s
/// JSON format.
struct ControlPlane: Sendable {
    static let prefix = "/__mockstack"

    let apps: [any MockApp]
    let exposedPorts: @Sendable () -> [String: Int]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let endpoint = String(request.path.dropFirst(Self.prefix.count))
        switch endpoint {
        case "/health":
            return readOnly(request) { .json(200, ["status": "ok"]) }
        case "/apps":
            return readOnly(request) { .json(200, ["apps": .array(apps.map(describe))]) }
        default:
            return PlainError.response(404, "No control endpoint \(request.path); available: \(Self.prefix)/health, \(Self.prefix)/apps")
        }
    }

    private func readOnly(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return PlainError.methodNotAllowed(request.method, path: request.path, allowed: ["GET", "HEAD"])
        }
        return answer()
    }

    private func describe(_ app: any MockApp) -> JSONValue {
        var object: JSONObject = [
            "name": .string(app.name),
            "kind": .string(app.kind),
            "mount": .string(app.mount),
        ]
        if let port = exposedPorts()[app.name] { object["exposedPort"] = .number(JSONNumber(port)) }
        object["routes"] = .array(app.routes.map { route in
            ["name": .string(route.name), "methods": .array(route.methods.map(JSONValue.string)), "path": .string(route.path)]
        })
        return .object(object)
    }
}
