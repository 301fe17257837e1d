public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif
#if canImport(MockStackTLSClient)
import MockStackTLSClient
#endif

/// A `URLSession` delegate that trusts the CA a mockstack server made (`serve --https-port`), for
/// that server's HTTPS port alone: every other host is checked as the system checks it, and a
/// certificate the CA did not sign is refused. A session's ``MockStackSession/urlSession`` uses
/// one; give one to your own `URLSession` (or to a client library that takes a delegate):
///
/// ```swift
/// let trust = try mock.serverTrust()
/// let session = URLSession(configuration: trust.configured(.ephemeral), delegate: trust, delegateQueue: nil)
/// let (data, _) = try await session.data(from: try mock.httpsURL(for: "test").appendingPathComponent("api/Hello"))
/// ```
///
/// On Apple's systems the CA joins the system's anchors for that host and port, and the
/// server's certificate is evaluated as usual (names, dates, Apple's rules). FoundationNetworking
/// on Linux asks no delegate about server certificates: there ``configured(_:)`` adds a
/// `URLProtocol` that makes the requests to that host and port with libcurl, trusting that CA
/// (README.md, HTTPS).
public final class MockStackServerTrust: NSObject, URLSessionDelegate, Sendable {
    /// The HTTPS host whose certificates the CA vouches for (`127.0.0.1`).
    public let host: String
    /// The HTTPS port whose certificates the CA vouches for.
    public let port: Int
    /// Where the CA is fetched at the first challenge (`GET /__mockstack/tls/ca.pem`).
    let authorityURL: URL
    private let authority = Mutex<Data?>(nil)

    /// Trusts the CA served at `controlBase` for `host:port`.
    public init(host: String, port: Int, controlBase: URL) {
        self.host = host
        self.port = port
        authorityURL = controlBase.appendingPathComponent("__mockstack/tls/ca.pem")
    }

    /// `configuration` made ready for this trust: on Linux, with the `URLProtocol` that makes the
    /// HTTPS port's requests trusting the CA, ahead of the session's own; elsewhere unchanged (the
    /// delegate does it).
    public func configured(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        #if canImport(MockStackTLSClient)
        TrustedHTTPSProtocol.trust(authorityAt: authorityURL, host: host, port: port)
        configuration.protocolClasses = [TrustedHTTPSProtocol.self] + (configuration.protocolClasses ?? [])
        #endif
        return configuration
    }

    /// The CA's certificate as DER, fetched once.
    func authorityDER() async throws -> Data {
        if let known = authority.withLock({ $0 }) { return known }
        guard let pem = try await Self.authorityPEM(at: authorityURL), let der = Self.der(fromPEM: pem) else {
            throw MockStackHTTPSError("\(authorityURL) gave no CA: was the server started with --https-port?")
        }
        authority.withLock { $0 = der }
        return der
    }

    /// The CA a server serves (`GET /__mockstack/tls/ca.pem`, open without the token); nil when
    /// it made none.
    static func authorityPEM(at url: URL) async throws -> Data? {
        let (data, response) = try await ControlSession.shared.data(from: url)
        return (response as? HTTPURLResponse)?.statusCode == 200 ? data : nil
    }

    /// The bytes of a PEM certificate's base64 body.
    static func der(fromPEM pem: Data) -> Data? {
        let lines = String(decoding: pem, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let begin = lines.firstIndex(of: "-----BEGIN CERTIFICATE-----"),
            let end = lines[begin...].firstIndex(of: "-----END CERTIFICATE-----")
        else { return nil }
        return Data(base64Encoded: lines[(begin + 1)..<end].joined())
    }

    /// Evaluates a server-trust challenge from the mock's HTTPS port with the CA added to the
    /// system's anchors; leaves every other challenge to the system.
    public func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        #if canImport(Security)
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, space.host == host,
            space.port == port, let trust = space.serverTrust
        else { return (.performDefaultHandling, nil) }
        guard let der = try? await authorityDER(), let certificate = SecCertificateCreateWithData(nil, der as CFData)
        else { return (.cancelAuthenticationChallenge, nil) }
        // The CA joins the system's anchors for this evaluation; it replaces none of them.
        SecTrustSetAnchorCertificates(trust, [certificate] as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, false)
        // Without the error's details: the client's own error says the certificate was refused.
        guard unsafe SecTrustEvaluateWithError(trust, nil) else { return (.cancelAuthenticationChallenge, nil) }
        return (.useCredential, URLCredential(trust: trust))
        #else
        return (.performDefaultHandling, nil)
        #endif
    }
}

/// HTTPS was asked of a server that does not serve it, or its CA could not be had.
public struct MockStackHTTPSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, and what to do about it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }

    static let notServed = MockStackHTTPSError(
        """
        the server serves no HTTPS: start it with --https-port 0 \
        (MockStackMode.spawned(arguments: ["--https-port", "0"]))
        """)
}

extension MockStackHandle {
    /// The HTTPS port's base URL (`https://127.0.0.1:54322`), when the server was started with
    /// `--https-port` (``MockStackMode/spawned(arguments:)`` with `["--https-port", "0"]`).
    public var httpsBaseURL: URL? { ready.httpsURL.flatMap(URL.init(string:)) }

    /// An app's base URL on the HTTPS port: `https://127.0.0.1:54322/test`.
    /// - Throws: ``MockStackHTTPSError`` when the server serves no HTTPS, ``UnknownAppError``
    ///   when it serves no such app.
    public func httpsURL(for app: String) throws -> URL {
        guard let httpsURL = ready.httpsURL else { throw MockStackHTTPSError.notServed }
        guard let mount = ready.apps.first(where: { $0.name == app })?.mount, let url = URL(string: httpsURL + mount)
        else { throw UnknownAppError(app: app, apps: ready.apps.map(\.name), notLoaded: ready.notLoaded) }
        return url
    }

    /// A delegate trusting the CA this server made, for its HTTPS port alone.
    /// - Throws: ``MockStackHTTPSError`` when the server serves no HTTPS.
    public func serverTrust() throws -> MockStackServerTrust {
        guard let port = ready.httpsPort, let host = httpsBaseURL?.host else { throw MockStackHTTPSError.notServed }
        return MockStackServerTrust(host: host, port: port, controlBase: baseURL)
    }

    /// The CA this server made, as PEM text (`GET /__mockstack/tls/ca.pem`): what a client that
    /// takes a CA file (curl's `--cacert`, Python's `cafile`) is given.
    /// - Throws: ``MockStackHTTPSError`` when the server serves no HTTPS, or was given its
    ///   certificate (`--tls-cert`).
    public func certificateAuthority() async throws -> String {
        let trust = try serverTrust()
        guard let pem = try await MockStackServerTrust.authorityPEM(at: trust.authorityURL) else {
            throw MockStackHTTPSError("the server made no CA: its certificate was given with --tls-cert")
        }
        return String(decoding: pem, as: UTF8.self)
    }
}
