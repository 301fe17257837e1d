/// Who a user is: the facts the credentials provider holds, a token carries as claims and a
/// session exposes to services.
public struct UserProfile: Sendable, Equatable {
    public var userAuthId: String
    public var userName: String?
    public var displayName: String?
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var roles: [String]
    public var permissions: [String]

    public init(
        userAuthId: String, userName: String? = nil, displayName: String? = nil, email: String? = nil,
        firstName: String? = nil, lastName: String? = nil, roles: [String] = [], permissions: [String] = []
    ) {
        self.userAuthId = userAuthId
        self.userName = userName
        self.displayName = displayName
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.roles = roles
        self.permissions = permissions
    }
}

/// An authenticated caller: a profile, from a JWT, a refresh token, Basic credentials or a
/// session cookie, and the session and token it came with. The profile's members read
/// directly (`session.userName`).
@dynamicMemberLookup
public struct AuthSession: Sendable, Equatable {
    public var profile: UserProfile
    public var sessionId: String
    /// The `jti` of the token that authenticated the request, if a token did.
    public var tokenId: String?
    /// When that token expires, in seconds since 1970.
    public var tokenExpiry: Int64?

    public init(profile: UserProfile, sessionId: String, tokenId: String? = nil, tokenExpiry: Int64? = nil) {
        self.profile = profile
        self.sessionId = sessionId
        self.tokenId = tokenId
        self.tokenExpiry = tokenExpiry
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<UserProfile, Value>) -> Value {
        profile[keyPath: keyPath]
    }
}
