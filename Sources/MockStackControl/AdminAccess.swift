import MockStackCore

/// Who may use the control plane (`/__mockstack/…`, a session's `/__session/{id}/__mockstack/…`).
///
/// On loopback it is open: only this machine can reach it. Bound anywhere else, anyone who can
/// reach the port could reset the apps, read the journal (with its headers and bodies) or stub
/// answers, so it takes a token: the one given (`--admin-token`, `MOCKSTACK_ADMIN_TOKEN`), or a
/// random one made at start-up and logged. A token given on loopback is required there too.
///
/// Three things stay open whatever the binding: `health`, which probes (a Docker HEALTHCHECK, a
/// load balancer) call without credentials; `tls/ca.pem`, the certificate a client must trust
/// before it can send a token over HTTPS, and no secret; and the control page's HTML, which holds no data —
/// its script sends the token it finds in the page URL's fragment (`/__mockstack/#token=…`),
/// which browsers never send to the server or log.
public enum AdminAccess: Sendable, Equatable {
    case open
    /// Requests must carry `X-MockStack-Admin-Token: T` or `Authorization: Bearer T`.
    case token(String)

    /// How a server bound to `host` guards its control plane.
    /// - Returns: the access, and whether the token was made here (so the start-up log shows it).
    public static func forBinding(host: String, token: String?) -> (access: AdminAccess, generated: Bool) {
        if let token, !token.isEmpty { return (.token(token), false) }
        if AdminToken.isLoopback(host) { return (.open, false) }
        return (.token(AdminToken.make()), true)
    }

    /// Whether `request` may use the endpoint it names (its path relative to the control
    /// plane's prefix: `/health`, `/reset`, …).
    func admits(_ request: HTTPRequest, endpoint: Substring) -> Bool {
        endpoint == "/health" || endpoint == "/tls/ca.pem" || endpoint.isEmpty || endpoint == "/"
            || authorizes(request)
    }

    /// Whether `request` carries the token (always true when the control plane is open).
    func authorizes(_ request: HTTPRequest) -> Bool {
        guard case .token(let expected) = self else { return true }
        let presented =
            request.headers[AdminToken.header]
            ?? request.headers["Authorization"].flatMap { value in
                value.utf8.count > 7 && value.hasPrefixIgnoringASCIICase("bearer ") ? String(value.dropFirst(7)) : nil
            }
        guard let presented else { return false }
        return ConstantTimeComparison.equal(Array(presented.utf8), Array(expected.utf8))
    }

    /// The 401 a request without the right token gets, in the control plane's error format.
    var refusal: HTTPResponse {
        PlainError.response(
            401,
            """
            The control plane needs the admin token: send it as \(AdminToken.header) or Authorization: Bearer (this \
            server is not bound to loopback, or was given --admin-token)
            """,
            headers: ["WWW-Authenticate": #"Bearer realm="mockstack""#])
    }
}
