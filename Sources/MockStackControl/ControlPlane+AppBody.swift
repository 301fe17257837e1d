import MockStackCore

/// The bodies of the endpoints that steer one app's connections (`events`, `server-events`):
/// a JSON object of known keys, whose `app` names an app with the feature the endpoint needs.
extension ControlPlane {
    /// The body when it is a JSON object with only `keys`; else a 400 naming them.
    func objectBody(_ request: HTTPRequest, keys: [String]) -> Result<JSONObject, ResponseFailure> {
        guard let parsed = try? JSONParser.forRequestBodies().parse(request.body).root, case .object(let body) = parsed
        else {
            return .failure(
                ResponseFailure(
                    PlainError.response(400, "The body must be a JSON object with \(keys.joined(separator: ", "))")))
        }
        if let unknown = body.keys.first(where: { !keys.contains($0) }) {
            return .failure(
                ResponseFailure(
                    PlainError.response(400, "Unknown key '\(unknown)' (keys: \(keys.joined(separator: ", ")))")))
        }
        return .success(body)
    }

    /// The app of `apps` (those with `feature`: `sockets`, `Server Events`) that `wanted` names:
    /// a 400 when it is not a string, a 404 listing them when none has that name.
    func app<App>(
        named wanted: JSONValue?, among apps: [App], name: (App) -> String, with feature: String
    ) -> Result<App, ResponseFailure> {
        let names = apps.map(name).joined(separator: ", ")
        guard case .string(let wanted)? = wanted else {
            return .failure(
                ResponseFailure(PlainError.response(400, "'app' must name an app with \(feature) (\(names))")))
        }
        guard let app = apps.first(where: { name($0) == wanted }) else {
            return .failure(
                ResponseFailure(
                    PlainError.response(
                        404, "No app with \(feature) named '\(wanted)' (apps with \(feature): \(names))")))
        }
        return .success(app)
    }
}
