public import Foundation
import MockStackJSON

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One session on a running mockstack: apps in their fixture state that only this session
/// sees, with a journal and stubs of its own, so parallel tests can share one server.
///
/// ```swift
/// let session = mock.session()
/// let client = JsonServiceClient(baseUrl: try session.url(for: "test").absoluteString)
/// // …
/// let sent = try await session.requests(app: "test")
/// ```
public struct MockStackSession: MockStackControlling {
    /// The session's id, the `{id}` of `/__session/{id}/`.
    public let id: String
    /// The server's root URL.
    public let serverURL: URL
    /// The server's admin token, if it wants one; the session's control calls send it.
    public let adminToken: String?
    private let ready: ReadyEvent
    private let ownURLSession: SessionURLSession

    init(id: String, server: any MockStackHandle) {
        self.id = id
        serverURL = server.baseURL
        adminToken = server.adminToken
        ready = server.ready
        ownURLSession = SessionURLSession(trust: try? server.serverTrust())
    }

    /// A `URLSession` of the session's own, for the test's requests: ephemeral, so cookies a
    /// sign-in sets stay in this session, and none from another test or an earlier run (which
    /// `URLSession.shared`'s store keeps) is sent into it. On Apple's systems it trusts the CA the
    /// server made for its HTTPS port (``httpsURL(for:)``), and nothing else more than the system
    /// does. Invalidated by ``end()``.
    ///
    /// ```swift
    /// let (data, _) = try await session.urlSession.data(from: try session.url(for: "test"))
    /// ```
    public var urlSession: URLSession { ownURLSession.urlSession }

    /// Frees ``urlSession`` once its tasks are done (the session is ending).
    func invalidateURLSession() { ownURLSession.invalidate() }

    /// `http://127.0.0.1:54321/__session/{id}`.
    public var controlBase: URL { serverURL.appendingPathComponent("__session").appendingPathComponent(id) }

    /// The base URL a client library should use for `app` in this session:
    /// `http://127.0.0.1:54321/__session/{id}/test`.
    /// - Throws: ``UnknownAppError`` when the server serves no such app (as the server's
    ///   ``MockStackHandle/url(for:)`` does).
    public func url(for app: String) throws(UnknownAppError) -> URL {
        guard let mount = ready.apps.first(where: { $0.name == app })?.mount,
            let url = URL(string: controlBase.absoluteString + mount)
        else {
            throw UnknownAppError(app: app, apps: ready.apps.map(\.name), notLoaded: ready.notLoaded)
        }
        return url
    }

    /// The base URL of `app` in this session on the HTTPS port (`serve --https-port`):
    /// `https://127.0.0.1:54322/__session/{id}/test`.
    /// - Throws: ``MockStackHTTPSError`` when the server serves no HTTPS, ``UnknownAppError``
    ///   when it serves no such app.
    public func httpsURL(for app: String) throws -> URL {
        guard let https = ready.httpsURL else { throw MockStackHTTPSError.notServed }
        let url = try url(for: app)
        return URL(string: https + url.absoluteString.dropFirst(serverURL.absoluteString.count))!
    }

    /// Forgets the session on the server (its state and journal); a later request starts a
    /// fresh one under the same id. Ending a session that was never used is not an error.
    public func end() async throws {
        invalidateURLSession()
        do {
            _ = try await ServerControl(controlBase: serverURL, adminToken: adminToken).call("DELETE", "sessions/" + id)
        } catch let error as MockStackControlError where error.status == 404 {
            return
        }
    }

    /// A random id: 16 hexadecimal digits.
    public static func freshId() -> String {
        String(zeroPadded: UInt64.random(in: .min ... .max), radix: 16, width: 16)
    }
}

extension MockStackHandle {
    /// A session of its own on this server (`/__session/{id}/…`): private app state, journal
    /// and stubs. A fresh random id unless one is given.
    public func session(_ id: String = MockStackSession.freshId()) -> MockStackSession {
        MockStackSession(id: id, server: self)
    }
}

extension MockStackHandle {
    /// The live sessions (`GET /__mockstack/sessions`), oldest first.
    public func sessions() async throws -> [ListedSession] {
        try await ServerControl(controlBase: baseURL, adminToken: adminToken).call("GET", "sessions")["sessions"]?
            .arrayValue?
            .map(ListedSession.init) ?? []
    }

    /// Resets one session by its id (`POST reset?session=ID`): its apps, journal, stubs and
    /// scenarios, as the session's own reset does.
    public func reset(session id: String) async throws {
        _ = try await ServerControl(controlBase: baseURL, adminToken: adminToken).call(
            "POST", "reset", query: [URLQueryItem(name: "session", value: id)])
    }
}

/// The whole server's control plane, for calls a session makes on its behalf.
struct ServerControl: MockStackControlling {
    let controlBase: URL
    let adminToken: String?
}
