import MockStackAuth
public import MockStackCore
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The emulated host's authentication (docs/servicestack.md#authentication): the credentials provider over configured
/// users, HS256 JWT access tokens and `JWTR` refresh tokens (bearer header, `ss-tok` /
/// `ss-reftok` cookies or `?ss-tok=`), server sessions behind `ss-id`, and invalidation.
///
/// State (sessions, invalidated token ids) is behind one lock; it only grows with what tests
/// do, and ``reset()`` starts it afresh.
public final class AuthService: Sendable {
    /// A user the credentials provider knows.
    public struct User: Sendable, Equatable {
        public var profile: UserProfile
        public var password: String

        public init(profile: UserProfile, password: String) {
            self.profile = profile
            self.password = password
        }
    }

    /// Who a request is, as far as its credentials say.
    public enum Identity: Sendable {
        case anonymous
        case authenticated(AuthSession)
        /// A bearer token that is expired, invalidated or forged: 401 for every operation but
        /// the ones that issue tokens.
        case rejected(ServiceError)
        /// Basic credentials that name no user or the wrong password. Anonymous where no
        /// authentication is required; where it is, the Basic provider's sign-in fails first and
        /// its 401 carries the reason (docs/servicestack.md#authentication).
        case refusedCredentials(ServiceError)
    }

    public let users: [User]
    /// Access tokens live this long, in seconds, unless a request says otherwise
    /// (ServiceStack's default: 14 days).
    public let accessTokenLifetime: Int64
    /// Refresh tokens live this long, in seconds (ServiceStack's default: 365 days).
    public let refreshTokenLifetime: Int64
    let tokens: HS256Tokens
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: AuthSession] = [:]
        /// Session ids oldest first, so the oldest go when there are too many.
        var sessionOrder: [String] = []
        /// Invalidated token ids with their expiry, in seconds since 1970.
        var invalidatedTokenIds: [String: Int64] = [:]
        /// The last `jti` of an access token (counting up from 1) and of a refresh token
        /// (counting down from -1), as ServiceStack numbers them.
        var lastAccessTokenId: Int64 = 0
        var lastRefreshTokenId: Int64 = 0
    }

    /// Server sessions kept at most; older ones are forgotten (their tokens still work).
    static let maximumSessions = 10_000

    /// What a sign-in with a wrong user name or password answers, by any provider.
    static let invalidCredentials = ServiceError.http(401, "Invalid Username or Password")

    public init(
        users: [User], secret: String, accessTokenLifetime: Int64 = 14 * 86_400,
        refreshTokenLifetime: Int64 = 365 * 86_400
    ) {
        self.users = users
        self.tokens = HS256Tokens(secret: secret)
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    /// The same users, secret and lifetimes with no sessions or invalidated tokens yet.
    public func freshCopy() -> AuthService {
        AuthService(
            users: users, tokens: tokens, accessTokenLifetime: accessTokenLifetime,
            refreshTokenLifetime: refreshTokenLifetime)
    }

    private init(users: [User], tokens: HS256Tokens, accessTokenLifetime: Int64, refreshTokenLifetime: Int64) {
        self.users = users
        self.tokens = tokens
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    // MARK: Who is calling

    /// The identity a request's credentials establish: a bearer token first, then the `ss-tok`
    /// cookie, the `ss-id` session cookie and the `?ss-tok=` parameter. Invalid cookies are
    /// ignored, as the real host drops them; an invalid bearer token is refused unless a cookie
    /// still authenticates the request (the Swift client retries a refreshed call that way).
    public func identify(_ request: HTTPRequest, query: [(name: String, value: String)], now: DateTimeValue) -> Identity
    {
        // `ss-tok` in the query is Unverified as the parameter's name; it mirrors the cookie.
        // By index, the names read in place: this runs for every call, nearly always anonymous.
        var queryToken: String?
        for index in query.indices where query[index].name.hasSameUTF8(as: "ss-tok") {
            queryToken = query[index].value
            break
        }
        guard queryToken != nil || request.headers.contains("Authorization") || request.headers.contains("Cookie")
        else { return .anonymous }
        let cookies = RequestCookies(request.headers)
        if let bearer = Self.bearerToken(request) {
            switch session(fromToken: bearer, now: now) {
            case .success(let session): return .authenticated(session)
            case .failure(let error):
                if let fallback = cookieSession(cookies, now: now) { return .authenticated(fallback) }
                return .rejected(error)
            }
        }
        // The Basic provider: the credentials authenticate this request on their own.
        let basic = request.basicCredentials
        if let basic, let user = user(named: basic.userName, password: basic.password) {
            return .authenticated(AuthSession(profile: user.profile, sessionId: Self.newId()))
        }
        if let session = cookieSession(cookies, now: now) { return .authenticated(session) }
        if let queryToken, case .success(let session) = session(fromToken: queryToken, now: now) {
            return .authenticated(session)
        }
        if basic != nil { return .refusedCredentials(Self.invalidCredentials) }
        return .anonymous
    }

    /// The session the cookies carry. An `ss-tok` that is expired or invalidated makes the
    /// request anonymous even when `ss-id` still names a session: the client must see the 401
    /// that makes it refresh its token.
    private func cookieSession(_ cookies: RequestCookies, now: DateTimeValue) -> AuthSession? {
        if let token = cookies["ss-tok"] {
            if case .success(let session) = session(fromToken: token, now: now) { return session }
            return nil
        }
        if let id = cookies["ss-id"] { return state.withLock { $0.sessions[id] } }
        return nil
    }

    /// The session an access token (or a refresh token, which ServiceStack also accepts as a
    /// bearer) stands for.
    func session(fromToken token: String, now: DateTimeValue) -> Result<AuthSession, ServiceError> {
        let verified: (claims: TokenClaims, type: String?)
        do {
            verified = try tokens.verify(token, at: Self.date(now))
        } catch {
            switch error {
            case .expired: return .failure(Self.tokenError("Token has expired"))
            case .invalidSignature: return .failure(Self.tokenError("Invalid Signature"))
            case .malformed: return .failure(Self.tokenError("Illegal base64url string!"))
            }
        }
        let claims = verified.claims
        if let id = claims.tokenId, state.withLock({ $0.invalidatedTokenIds[id] != nil }) {
            return .failure(Self.tokenError("Token has been invalidated"))
        }
        if verified.type == "JWTR" {
            let sessionId = claims.sessionId ?? Self.newId()
            let profile = user(withId: claims.userId)?.profile ?? UserProfile(userAuthId: claims.userId)
            return .success(
                AuthSession(
                    profile: profile, sessionId: sessionId, tokenId: claims.tokenId, tokenExpiry: claims.expirySeconds))
        }
        let profile = UserProfile(
            userAuthId: claims.userId, userName: claims.userName, displayName: claims.name, email: claims.email,
            firstName: claims.givenName, lastName: claims.familyName, roles: claims.roles ?? [],
            permissions: claims.permissions ?? [])
        // As ServiceStack's JWT provider: a session of a new id for each request.
        return .success(
            AuthSession(
                profile: profile, sessionId: claims.sessionId ?? Self.newId(),
                tokenId: claims.tokenId, tokenExpiry: claims.expirySeconds))
    }

    // MARK: Credentials and sessions

    /// The user with these credentials (user name or email, case-insensitive; password exact).
    public func user(named name: String, password: String) -> User? {
        let name = name.lowercased()
        return users.first {
            ($0.profile.userName?.lowercased() == name || $0.profile.email?.lowercased() == name)
                && $0.password == password
        }
    }

    /// The configured user with this id.
    public func user(withId id: String) -> User? {
        users.first { $0.profile.userAuthId == id }
    }

    /// Starts a server session for `user` (the `ss-id` cookie names it).
    func startSession(for user: User) -> AuthSession {
        let session = AuthSession(profile: user.profile, sessionId: Self.newId())
        state.withLock { state in
            state.sessions[session.sessionId] = session
            state.sessionOrder.append(session.sessionId)
            if state.sessionOrder.count > Self.maximumSessions {
                let dropped = state.sessionOrder.prefix(state.sessionOrder.count - Self.maximumSessions)
                for id in dropped { state.sessions.removeValue(forKey: id) }
                state.sessionOrder.removeFirst(dropped.count)
            }
        }
        return session
    }

    func endSession(_ id: String) {
        state.withLock { state in
            state.sessions.removeValue(forKey: id)
            state.sessionOrder.removeAll { $0 == id }
        }
    }

    /// Refuses a token id from now on (until the token expires anyway, when it is forgotten).
    func invalidate(tokenId: String, expiresAt expiry: Int64, now: DateTimeValue) {
        let nowSeconds = now.ticks.floorDivided(by: CivilTime.ticksPerSecond)
        state.withLock { state in
            state.invalidatedTokenIds = state.invalidatedTokenIds.filter { $0.value > nowSeconds }
            state.invalidatedTokenIds[tokenId] = expiry
        }
    }

    /// Forgets every session and invalidation (the fixture state).
    public func reset() {
        state.withLock { $0 = State() }
    }

    // MARK: Tokens

    /// A signed access token for a session, expiring at `expiry` (default: the configured lifetime).
    func accessToken(for session: AuthSession, now: DateTimeValue, expiry: DateTimeValue? = nil) -> String {
        let id = state.withLock { state in
            state.lastAccessTokenId += 1
            return state.lastAccessTokenId
        }
        var claims = TokenClaims(
            subject: session.userAuthId, issuedAt: Self.date(now),
            expiration: Self.date(expiry ?? now.adding(seconds: accessTokenLifetime)), id: String(id))
        claims.name = session.displayName
        claims.userName = session.userName
        claims.email = session.email
        claims.givenName = session.firstName
        claims.familyName = session.lastName
        claims.roles = session.roles.isEmpty ? nil : session.roles
        claims.permissions = session.permissions.isEmpty ? nil : session.permissions
        return tokens.sign(
            header: ServiceStackTokenWriter.header(type: "JWT"), payload: ServiceStackTokenWriter.payload(claims))
    }

    /// A signed refresh token (`typ: JWTR`) for a user id.
    func refreshToken(subject: String, now: DateTimeValue, expiry: DateTimeValue? = nil) -> String {
        let id = state.withLock { state in
            state.lastRefreshTokenId -= 1
            return state.lastRefreshTokenId
        }
        let claims = TokenClaims(
            subject: subject, issuedAt: Self.date(now),
            expiration: Self.date(expiry ?? now.adding(seconds: refreshTokenLifetime)), id: String(id))
        return tokens.sign(
            header: ServiceStackTokenWriter.header(type: "JWTR"), payload: ServiceStackTokenWriter.payload(claims))
    }

    /// When a refresh token issued now expires.
    func refreshTokenExpiry(now: DateTimeValue) -> DateTimeValue { now.adding(seconds: refreshTokenLifetime) }

    /// Who a refresh token was issued to.
    struct RefreshGrant {
        var userId: String
        var sessionId: String?
    }

    /// The grant of a refresh token this host issued, or why it is refused.
    func refreshGrant(_ token: String, now: DateTimeValue) -> Result<RefreshGrant, ServiceError> {
        do {
            let verified = try tokens.verify(token, at: Self.date(now))
            guard verified.type == "JWTR" else { return .failure(ServiceError(.argument, "Invalid Refresh Token")) }
            if let id = verified.claims.tokenId, state.withLock({ $0.invalidatedTokenIds[id] != nil }) {
                return .failure(Self.tokenError("Token has been invalidated"))
            }
            return .success(RefreshGrant(userId: verified.claims.userId, sessionId: verified.claims.sessionId))
        } catch {
            switch error {
            case .expired: return .failure(Self.tokenError("Token has expired"))
            case .invalidSignature: return .failure(Self.tokenError("Invalid Signature"))
            case .malformed: return .failure(ServiceError(.argument, "Illegal base64url string!"))
            }
        }
    }

    // MARK: Helpers

    static func tokenError(_ message: String) -> ServiceError {
        ServiceError(.custom(fullName: "ServiceStack.TokenException", status: 401), message)
    }

    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let authorization = request.headers["Authorization"], authorization.count > 7,
            authorization.hasPrefixIgnoringASCIICase("bearer ")
        else { return nil }
        let token = authorization.dropFirst(7).trimmingASCIISpace()
        return token.isEmpty ? nil : String(token)
    }

    /// Whole seconds: JWT NumericDates are written as integers.
    static func date(_ value: DateTimeValue) -> Date {
        Date(timeIntervalSince1970: Double(value.ticks.floorDivided(by: CivilTime.ticksPerSecond)))
    }

    /// A random id: 20 letters and digits, as ServiceStack's session ids look.
    static func newId() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

extension DateTimeValue {
    func adding(seconds: Int64) -> DateTimeValue {
        DateTimeValue(ticks: ticks + seconds * CivilTime.ticksPerSecond, kind: kind)
    }
}
