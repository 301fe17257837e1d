import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockStack
import MockStackInProcess
import MockStackJSON
@testable import MockStackTesting
#if canImport(MockStackTLSClient)
import MockStackTLSClient
#endif
import MockStackTransport
import Testing
import TestSupport

/// `serve --https-port`: the same apps and control plane over TLS, with a certificate made at
/// start or given, checked by Python's ssl module in its strict mode (Tests/TLSClient/tls_client.py).
@Suite(.timeLimit(.minutes(3)))
struct HTTPSTests {
    /// A server on a free HTTPS port, and its CA in a file a client can trust.
    private static func secureServer(
        certificate: TLSCertificateSource = .generated(), apps: [String] = ["test", "feathers"]
    ) throws -> (InProcessMockStack, caFile: String) {
        var configuration = MockStackConfiguration(apps: apps)
        configuration.httpsPort = 0
        configuration.tlsCertificate = certificate
        let mock = try InProcessMockStack(configuration: configuration)
        let caFile = try makeTemporaryDirectory().appendingPathComponent("ca.pem").path
        let authority = try #require(mock.server.tls?.authorityPEM ?? (try? String(contentsOfFile: testCA, encoding: .utf8)))
        try authority.write(toFile: caFile, atomically: true, encoding: .utf8)
        return (mock, caFile)
    }

    /// A CA and a certificate it signed for the loopback names, made with openssl for these tests
    /// (valid for a hundred years; their keys protect nothing).
    static let tlsFolder = packageRoot.appendingPathComponent("Tests/TLS")
    static let testCA = tlsFolder.appendingPathComponent("ca.pem").path
    private var testCA: String { Self.testCA }

    private static func client(_ scenario: String, port: Int, caFile: String) throws -> JSONValue {
        let python = try #require(
            [ProcessInfo.processInfo.environment["MOCKSTACK_PYTHON"], packageRoot.appendingPathComponent(".venv/bin/python").path,
             "/usr/bin/python3"].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "no Python: run Scripts/ensure-python-clients.sh (make test does)")
        let script = packageRoot.appendingPathComponent("Tests/TLSClient/tls_client.py").path
        let run = try ProcessRun.run(URL(fileURLWithPath: python), [script, scenario, String(port), caFile])
        #expect(run.status == 0, "tls_client.py \(scenario): \(run.stderr)")
        return try JSONParser().parse(run.stdout).root
    }

    @Test func theReadyLineNamesTheHTTPSPortAndItServesWhatTheMainPortServes() throws {
        let (mock, caFile) = try Self.secureServer()
        let port = try #require(mock.ready.httpsPort)
        #expect(port != mock.ready.port)
        #expect(mock.ready.httpsURL == "https://127.0.0.1:\(port)")
        #expect(mock.ready.json["httpsUrl"]?.stringValue == "https://127.0.0.1:\(port)")
        #expect(ReadyEvent(line: mock.ready.line)?.httpsPort == port)
        #expect(mock.ready.exposed.isEmpty, "the HTTPS port is not an exposed app's")

        let answered = try Self.client("requests", port: port, caFile: caFile)
        for host in ["localhost", "127.0.0.1"] {
            #expect(answered[host]?["keepAlive"] == [200, "Hello, n0!", 200, "Hello, n19!", 20], "\(host)")
            #expect(answered[host]?["large"] == [200, 3_000_021])
            #expect(answered[host]?["pipelined"] == ["Hello, p1!", "Hello, p2!"])
            #expect(answered[host]?["version"] == "TLSv1.3")
            #expect(
                answered[host]?["names"]
                    == [["DNS", "localhost"], ["IP Address", "127.0.0.1"], ["IP Address", "0:0:0:0:0:0:0:1"]])
        }
    }

    @Test func badInputOnTheHTTPSPortIsAnsweredOrClosedAndStallsNoOne() throws {
        let (mock, caFile) = try Self.secureServer()
        let port = try #require(mock.ready.httpsPort)
        // As nginx: plain HTTP on the HTTPS port is told so, in plain HTTP.
        #expect(
            try Self.client("plain", port: port, caFile: caFile)
                == [
                    "status": 400,
                    "body": [
                        "status": 400, "error": "Bad Request",
                        "message": "The plain HTTP request was sent to the HTTPS port",
                    ], "connection": "close", "closed": true,
                ])
        #expect(try Self.client("garbage", port: port, caFile: caFile) == ["closed": true, "after": [200, "Hello, after!"]])
        #expect(
            try Self.client("too-large", port: port, caFile: caFile)
                == [
                    "status": 413,
                    "body": [
                        "status": 413, "error": "Payload Too Large",
                        "message": "Request body is larger than the limit of 16777216 bytes",
                    ], "connection": "close",
                ])
    }

    @Test func aWebSocketUpgradesOverTLS() throws {
        let (mock, caFile) = try Self.secureServer()
        let opened = try Self.client("websocket", port: try #require(mock.ready.httpsPort), caFile: caFile)
        #expect(opened == ["status": "HTTP/1.1 101 Switching Protocols", "opcode": 1, "packet": #"0{"sid":"#])
    }

    @Test func absoluteURLsSayHTTPSAndTheJournalSaysTheRequestWasSecure() async throws {
        let (mock, caFile) = try Self.secureServer(apps: ["test"])
        let port = try #require(mock.ready.httpsPort)
        let answered = try Self.client("requests", port: port, caFile: caFile)
        // The DTO file's header names the URL it came from, as the client reached it.
        #expect(answered["localhost"]?["baseUrl"] == "BaseUrl: https://localhost/test")
        let entries = try await mock.requests(app: "test")
        #expect(entries.count == 48 && entries.allSatisfy(\.isSecure))
        _ = try await URLSession.shared.data(from: try mock.url(for: "test").appendingPathComponent("api/Hello"))
        #expect(try await mock.requests(app: "test").last?.isSecure == false)
    }

    @Test func theCAIsServedOpenlyAndAGivenCertificateHasNone() async throws {
        var configuration = MockStackConfiguration(host: "0.0.0.0", apps: ["test"])
        configuration.httpsPort = 0
        let mock = try InProcessMockStack(configuration: configuration)
        let (data, response) = try await URLSession.shared.data(
            from: mock.baseURL.appendingPathComponent("__mockstack/tls/ca.pem"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "open without the admin token")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/x-pem-file")
        #expect(String(decoding: data, as: UTF8.self) == mock.server.tls?.authorityPEM)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----\n"))

        let (given, caFile) = try Self.secureServer(
            certificate: .files(
                certificate: Self.tlsFolder.appendingPathComponent("server.pem").path,
                key: Self.tlsFolder.appendingPathComponent("server-key.pem").path))
        #expect(given.server.tls?.authorityPEM == nil)
        let answered = try Self.client("requests", port: try #require(given.ready.httpsPort), caFile: caFile)
        #expect(answered["localhost"]?["keepAlive"] == [200, "Hello, n0!", 200, "Hello, n19!", 20])
        let (_, none) = try await URLSession.shared.data(from: given.baseURL.appendingPathComponent("__mockstack/tls/ca.pem"))
        #expect((none as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func aCertificateThatCannotBeUsedStopsTheStart() throws {
        func refusal(_ certificate: String, _ key: String) -> String {
            var configuration = MockStackConfiguration(apps: ["test"])
            configuration.httpsPort = 0
            configuration.tlsCertificate = .files(
                certificate: Self.tlsFolder.appendingPathComponent(certificate).path,
                key: Self.tlsFolder.appendingPathComponent(key).path)
            do {
                _ = try MockStackServer(configuration: configuration)
                return "started"
            } catch {
                return "\(error)".replacingOccurrences(of: Self.tlsFolder.path + "/", with: "")
            }
        }
        #expect(refusal("server.pem", "ca-key.pem") == "--https-port: --tls-key ca-key.pem is not the key of --tls-cert server.pem")
        #expect(refusal("missing.pem", "server-key.pem") == "--https-port: --tls-cert missing.pem: no such file")
        #expect(refusal("server.pem", "server.pem").hasPrefix("--https-port: --tls-key server.pem: "))
    }

    @Test func theTestingProductNamesTheHTTPSURLsAndTrustsTheCAOnlyForThatPort() async throws {
        let (mock, _) = try Self.secureServer(apps: ["test"])
        let port = try #require(mock.ready.httpsPort)
        #expect(mock.httpsBaseURL?.absoluteString == "https://127.0.0.1:\(port)")
        #expect(try mock.httpsURL(for: "test").absoluteString == "https://127.0.0.1:\(port)/test")
        let session = mock.session("s1")
        #expect(try session.httpsURL(for: "test").absoluteString == "https://127.0.0.1:\(port)/__session/s1/test")
        #expect(throws: UnknownAppError(app: "tset", apps: ["test"], notLoaded: mock.ready.notLoaded)) {
            try mock.httpsURL(for: "tset")
        }
        let pem = try await mock.certificateAuthority()
        #expect(pem == mock.server.tls?.authorityPEM)
        let trust = try mock.serverTrust()
        #expect(trust.host == "127.0.0.1" && trust.port == port)
        // The DER the delegate anchors is the PEM's body.
        let der = try await trust.authorityDER()
        #expect(der.base64EncodedString() == pem.split(separator: "\n").dropFirst().dropLast().joined())
        #expect(MockStackServerTrust.der(fromPEM: Data("no certificate".utf8)) == nil)

        // The session's own URLSession trusts the CA for the HTTPS port (on Linux through
        // MockStackTLSClient's URLProtocol, elsewhere through the delegate).
        let hello = try session.httpsURL(for: "test").appendingPathComponent("api/Hello")
        let (data, response) = try await session.urlSession.data(from: URL(string: hello.absoluteString + "?name=TLS")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"result":"Hello, TLS!"}"#)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
        var post = URLRequest(url: hello)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"name":"Secure"}"#.utf8)
        let (posted, _) = try await session.urlSession.data(for: post)
        #expect(String(decoding: posted, as: UTF8.self) == #"{"result":"Hello, Secure!"}"#)
        #expect(try await session.requests(app: "test").map(\.isSecure) == [true, true])
        // The plain port is reached as before.
        let plainHello = try session.url(for: "test").appendingPathComponent("api/Hello")
        let (plainData, _) = try await session.urlSession.data(from: URL(string: plainHello.absoluteString + "?name=plain")!)
        #expect(String(decoding: plainData, as: UTF8.self) == #"{"result":"Hello, plain!"}"#)

        let plain = try InProcessMockStack(configuration: MockStackConfiguration(apps: ["test"]))
        #expect(plain.httpsBaseURL == nil)
        #expect(throws: MockStackHTTPSError.notServed) { try plain.httpsURL(for: "test") }
        #expect(throws: MockStackHTTPSError.notServed) { try plain.session().httpsURL(for: "test") }
        #expect(throws: MockStackHTTPSError.notServed) { try plain.serverTrust() }
        await #expect(throws: MockStackHTTPSError.notServed) { try await plain.certificateAuthority() }
    }

    /// A CA other than the one that signed the server's certificate is refused: the trust is
    /// the CA's, not a check turned off.
    @Test func anotherCAIsRefused() async throws {
        let (mock, _) = try Self.secureServer(apps: ["test"])
        let port = try #require(mock.ready.httpsPort)
        #if canImport(MockStackTLSClient)
        TrustedHTTPSProtocol.trust(authorityPEM: try String(contentsOfFile: Self.testCA, encoding: .utf8), host: "localhost", port: port)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [TrustedHTTPSProtocol.self]
        let session = URLSession(configuration: configuration)
        let url = try #require(URL(string: "https://localhost:\(port)/test/api/Hello"))
        do {
            _ = try await session.data(from: url)
            Issue.record("a certificate the trusted CA did not sign was accepted")
        } catch let error as URLError {
            #expect(error.code == .serverCertificateUntrusted)
        }
        #endif
    }

    /// A server started later on the port an earlier one used has a CA of its own: a session of
    /// the new server trusts the new CA, not the one fetched for the old.
    @Test func aLaterServerOnTheSamePortIsTrustedByItsOwnCA() async throws {
        let (first, _) = try Self.secureServer(apps: ["test"])
        let port = try #require(first.ready.httpsPort)
        let hello = { (mock: InProcessMockStack) throws -> URL in
            try #require(URL(string: try mock.session("s").httpsURL(for: "test").absoluteString + "/api/Hello?name=again"))
        }
        let (answered, _) = try await first.session("s").urlSession.data(from: try hello(first))
        #expect(String(decoding: answered, as: UTF8.self) == #"{"result":"Hello, again!"}"#)
        first.stop()
        var configuration = MockStackConfiguration(apps: ["test"])
        configuration.httpsPort = port
        let second = try InProcessMockStack(configuration: configuration)
        defer { second.stop() }
        #expect(second.server.tls?.authorityPEM != first.server.tls?.authorityPEM)
        let (again, _) = try await second.session("s").urlSession.data(from: try hello(second))
        #expect(String(decoding: again, as: UTF8.self) == #"{"result":"Hello, again!"}"#)
    }
}
