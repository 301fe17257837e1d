import MockStackAuth
import MockStackCore

/// The authentication service (`/authentication`, docs/feathers.md#signing-in,
/// docs/feathers.md#the-authorization-header, docs/feathers.md#protected-services) and the
/// `authenticate('jwt')` hook of protected services.
extension FeathersApp {
    /// `POST /authentication` (create → 201) and `DELETE /authentication[/<token>]` (remove → 200).
    /// `token` is the caller's: REST's `Authorization` header, or what a socket connection signed in with.
    func authenticationCall(
        _ method: ServiceMethod, id: String?, body: JSONValue, token: String?
    ) throws(FeathersError) -> (status: Int, value: JSONValue) {
        guard let authentication else { throw FeathersError.methodNotSupported(method.rawValue) }
        switch method {
        case .create:
            guard !authentication.strategies.isEmpty else {
                throw FeathersError(
                    .notAuthenticated, "No authentication strategies allowed for creating a JWT (`authStrategies`)")
            }
            return (201, try authenticate(body.objectValue ?? [:], with: authentication))
        case .remove:
            guard let token = token else {
                // Without a header the service reads `authentication.accessToken` of nothing.
                if id != nil {
                    throw FeathersError(
                        .generalError, "Cannot read properties of undefined (reading 'accessToken')", converted: true)
                }
                throw FeathersError(.notAuthenticated, "Invalid authentication information (no `strategy` set)")
            }
            if let id, id != token { throw FeathersError(.notAuthenticated, "Invalid access token") }
            return (200, try authenticate(["strategy": "jwt", "accessToken": .string(token)], with: authentication))
        default:
            throw FeathersError.methodNotSupported(method.rawValue)
        }
    }

    /// The user a protected call's token names, or why there is none.
    @discardableResult
    func authenticatedUser(token: String?) throws(FeathersError) -> JSONObject {
        guard let authentication, let token else {
            throw FeathersError.notAuthenticated
        }
        let (claims, _) = try authentication.verify(token, now: clock())
        return try entity(claims.userId, authentication)
    }

    /// The strategies: `local` checks the username and password, `jwt` a token it returns as is.
    private func authenticate(
        _ data: JSONObject, with authentication: FeathersAuthentication
    ) throws(FeathersError) -> JSONValue {
        guard let strategy = data["strategy"]?.stringValue, !strategy.isEmpty else {
            throw FeathersError(.notAuthenticated, "Invalid authentication information (no `strategy` set)")
        }
        guard authentication.strategies.contains(strategy) else {
            throw FeathersError(
                .notAuthenticated, "Invalid authentication information (strategy not allowed in authStrategies)")
        }
        switch strategy {
        case "local":
            let user = try localUser(data, authentication)
            let idField = try entityService(authentication).options.idField
            let id = MemoryStore.key(user[idField] ?? .null)
            let (token, payload) = authentication.issue(subject: id, now: clock())
            var details: JSONObject = ["strategy": "local"]
            if dialect == .v4 { details["accessToken"] = .string(token) }
            details["payload"] = .object(payload)
            return [
                "accessToken": .string(token), "authentication": .object(details),
                authentication.entity: .object(try entity(id, authentication)),
            ]
        case "jwt":
            guard let token = data["accessToken"]?.stringValue, !token.isEmpty else {
                throw FeathersError(.notAuthenticated, "No access token")
            }
            let (claims, payload) = try authentication.verify(token, now: clock())
            let user = try entity(claims.userId, authentication)
            return [
                "accessToken": .string(token),
                "authentication": ["strategy": "jwt", "accessToken": .string(token), "payload": .object(payload)],
                authentication.entity: .object(user),
            ]
        default:
            throw FeathersError(.notAuthenticated, "Invalid authentication information")
        }
    }

    /// The local strategy: a password, then the user found by the username field (compared
    /// strictly, as a query is), then the password checked against the stored hash; any
    /// failure is the same `Invalid login`.
    private func localUser(
        _ data: JSONObject, _ authentication: FeathersAuthentication
    ) throws(FeathersError) -> JSONObject {
        guard let password = data[authentication.passwordField], MemoryStore.isTruthy(password),
            let username = data[authentication.usernameField],
            MemoryStore.isTruthy(username)
        else { throw FeathersError.invalidLogin }
        let service = try entityService(authentication)
        // The strategy's entity query: the username, one record at most.
        let query = try FeathersQuery([authentication.usernameField: username, "$limit": 1], dialect: dialect)
        let found: [JSONObject]
        switch try service.find(query) {
        case .records(let records): found = records
        case .page(_, _, _, let data): found = data
        }
        guard let user = found.first,
            let hash = user[authentication.passwordField]?.stringValue, let text = password.stringValue,
            PasswordHasher.verify(text, against: hash)
        else { throw FeathersError.invalidLogin }
        return user
    }

    /// The user by id, as an external caller reads it (without the password).
    private func entity(_ id: String, _ authentication: FeathersAuthentication) throws(FeathersError) -> JSONObject {
        let service = try entityService(authentication)
        let user = try service.get(id, FeathersQuery(select: nil))
        return service.external(user)
    }

    private func entityService(_ authentication: FeathersAuthentication) throws(FeathersError) -> MemoryService {
        guard let service = services.first(where: { $0.options.path == authentication.service }) else {
            throw FeathersError(.notAuthenticated, "Could not find entity service")
        }
        return service
    }
}
