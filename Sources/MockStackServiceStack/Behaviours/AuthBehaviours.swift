import MockStackCore

/// `authenticate`: ServiceStack's `Authenticate` service with the credentials provider (also
/// fed by a Basic header), returning the session's tokens in the body and as the `ss-tok`,
/// `ss-reftok`, `ss-id` and `ss-pid` cookies; `provider: "logout"` ends the session.
public struct AuthenticateBehaviour: OperationBehaviour {
    public init() {}

    public var issuesTokens: Bool { true }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let auth = try call.requireAuth()
        let provider = call.request.value(named: "Provider").text?.lowercased()
        if provider == "logout" {
            if let id = RequestCookies(call.http.headers)["ss-id"] { auth.endSession(id) }
            if let session = call.session, let tokenId = session.tokenId {
                auth.invalidate(tokenId: tokenId, expiresAt: session.tokenExpiry ?? Int64.max, now: call.now)
            }
            // ServiceStack deletes a cookie by setting it empty, expired a day ago.
            var headers = HTTPHeaders()
            for name in ["ss-tok", "ss-reftok", "ss-id", "ss-pid"] {
                headers.add(
                    "Set-Cookie", SetCookie.value(name, "", expires: call.now.adding(seconds: -86_400), for: call.http))
            }
            return ServiceResult(.dto(.object(DTOObject())), headers: headers)
        }

        let userName = call.request.value(named: "UserName").text
        let password = call.request.value(named: "Password").text
        let credentials =
            userName.map { ($0, password ?? "") }
            ?? call.http.basicCredentials.map { ($0.userName, $0.password) }
        let session: AuthSession
        if let (name, secret) = credentials {
            guard let user = auth.user(named: name, password: secret) else {
                throw AuthService.invalidCredentials
            }
            session = auth.startSession(for: user)
        } else if let current = call.session {
            session = current
        } else {
            throw ServiceError.http(401, "Not Authenticated")
        }

        let accessToken = auth.accessToken(for: session, now: call.now)
        let refreshToken = auth.refreshToken(subject: session.userAuthId, now: call.now)
        var response = DTOObject()
        response["UserId"] = .string(session.userAuthId)
        response["SessionId"] = .string(session.sessionId)
        response["UserName"] = session.userName.map { .string($0) } ?? .null
        response["DisplayName"] = session.displayName.map { .string($0) } ?? .null
        // Mock choice: the tokens travel in the body too (whether the real host sends them
        // alongside its token cookies is Unverified).
        response["BearerToken"] = .string(accessToken)
        response["RefreshToken"] = .string(refreshToken)
        response["RefreshTokenExpiry"] = .dateTime(auth.refreshTokenExpiry(now: call.now))
        response["Roles"] = .list(session.roles.map { .string($0) })
        response["Permissions"] = .list(session.permissions.map { .string($0) })
        response["AuthProvider"] = .string(provider ?? "credentials")
        var headers = HTTPHeaders()
        // The token cookies expire with their tokens; `ss-id` lasts the browser session and
        // `ss-pid` is permanent: 20 years (from the real host's start; from the sign-in here).
        headers.add(
            "Set-Cookie",
            SetCookie.value(
                "ss-tok", accessToken, expires: call.now.adding(seconds: auth.accessTokenLifetime), for: call.http))
        headers.add(
            "Set-Cookie",
            SetCookie.value("ss-reftok", refreshToken, expires: auth.refreshTokenExpiry(now: call.now), for: call.http))
        headers.add("Set-Cookie", SetCookie.value("ss-id", session.sessionId, expires: nil, for: call.http))
        headers.add(
            "Set-Cookie",
            SetCookie.value(
                "ss-pid", session.sessionId, expires: call.now.adding(seconds: 20 * 365 * 86_400), for: call.http))
        // The host keeps its tokens in cookies (`UseTokenCookie`) and names them, for clients
        // that cannot read HttpOnly cookies: the TypeScript client then refreshes by cookie.
        headers.add("X-Cookies", "ss-tok,ss-reftok")
        return try ServiceResult(.dto(call.conformed(.object(response))), headers: headers)
    }
}

/// `accessToken`: `GetAccessToken` exchanges a refresh token (from the body or the `ss-reftok`
/// cookie) for a new access token, set as the `ss-tok` cookie only: the test host keeps its
/// tokens in cookies (`jwt.UseTokenCookie`), so the body holds no token, and `meta` is always
/// `{}` so the Swift client can decode it (docs/servicestack.md#what-the-clients-need).
public struct AccessTokenBehaviour: OperationBehaviour {
    public init() {}

    public var issuesTokens: Bool { true }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let auth = try call.requireAuth()
        let cookies = RequestCookies(call.http.headers)
        guard let refreshToken = call.request.value(named: "RefreshToken").text ?? cookies["ss-reftok"] else {
            throw ServiceError.argument(.argumentNull, "Value cannot be null.", parameter: "RefreshToken")
        }
        let claims: AuthService.RefreshGrant
        switch auth.refreshGrant(refreshToken, now: call.now) {
        case .success(let grant): claims = grant
        case .failure(let error): throw error
        }
        let profile = auth.user(withId: claims.userId)?.profile ?? UserProfile(userAuthId: claims.userId)
        let session = AuthSession(profile: profile, sessionId: claims.sessionId ?? AuthService.newId())
        let accessToken = auth.accessToken(for: session, now: call.now)
        let response = DTOObject([("Meta", .map([]))])
        return try ServiceResult(
            .dto(call.conformed(.object(response))),
            headers: [
                "Set-Cookie": SetCookie.value(
                    "ss-tok", accessToken, expires: call.now.adding(seconds: auth.accessTokenLifetime), for: call.http)
            ])
    }
}

/// `createJwt` / `createRefreshJwt`: the test host's helpers that mint tokens from request
/// fields (`CreateJwt`: a session's facts and `JwtExpiry`; `CreateRefreshJwt`: a `JWTR` for
/// `UserAuthId`, default `"1"`, expiring in a day).
public struct CreateTokenBehaviour: OperationBehaviour {
    public enum Kind: Sendable { case access, refresh }

    public let kind: Kind

    public init(kind: Kind) { self.kind = kind }

    /// Minting works whatever token the caller still holds (Python retries with an expired one).
    public var issuesTokens: Bool { true }

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let auth = try call.requireAuth()
        let request = call.request
        let expiry: DateTimeValue? =
            if case .dateTime(let date) = request.value(named: "JwtExpiry") { date } else { nil }
        let token: String
        switch kind {
        case .access:
            func strings(_ name: String) -> [String] { request.value(named: name).listValue?.compactMap(\.text) ?? [] }
            let profile = UserProfile(
                userAuthId: request.value(named: "UserAuthId").text ?? "0",
                userName: request.value(named: "UserName").text,
                displayName: request.value(named: "DisplayName").text, email: request.value(named: "Email").text,
                firstName: request.value(named: "FirstName").text, lastName: request.value(named: "LastName").text,
                roles: strings("Roles"), permissions: strings("Permissions"))
            let session = AuthSession(profile: profile, sessionId: AuthService.newId())
            token = auth.accessToken(for: session, now: call.now, expiry: expiry)
        case .refresh:
            token = auth.refreshToken(
                subject: request.value(named: "UserAuthId").text ?? "1", now: call.now,
                expiry: expiry ?? call.now.adding(seconds: 86_400))
        }
        return try ServiceResult(.dto(call.conformed(.object(DTOObject([("Token", .string(token))])))))
    }
}

/// `invalidateToken`: `InvalidateLastAccessToken`. The real host blacklists the last token it
/// issued to anyone, which races under parallel tests; Mock choice: the caller's own token.
public struct InvalidateTokenBehaviour: OperationBehaviour {
    public init() {}

    public func perform(_ call: ServiceCall) throws(ServiceError) -> ServiceResult {
        let auth = try call.requireAuth()
        if let session = call.session, let tokenId = session.tokenId {
            auth.invalidate(tokenId: tokenId, expiresAt: session.tokenExpiry ?? Int64.max, now: call.now)
        }
        return try ServiceResult(.dto(call.conformed(.object(DTOObject()))))
    }
}

extension ServiceCall {
    func requireAuth() throws(ServiceError) -> AuthService {
        guard let auth = context.auth else {
            throw ServiceError(
                .notImplemented, "mockstack: \(operation.name) needs an 'auth' section in the app's manifest")
        }
        return auth
    }
}
