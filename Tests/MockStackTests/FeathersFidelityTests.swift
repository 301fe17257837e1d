import Foundation
import MockStack
import MockStackAuth
import MockStackCore
import MockStackInProcess
import MockStackTesting
import Testing
import TestSupport

/// What real clients found a real Feathers server does (issue 26), over loopback on the shipped
/// apps: a `$or` sift cannot read, unknown methods, the users service restricted to the caller,
/// the JWT's claim bytes, and the `cors()` middleware.
@Suite(.timeLimit(.minutes(1)))
struct FeathersFidelityTests {
    let mock: InProcessMockStack
    let server: FeathersClient
    let v4: FeathersClient

    init() throws {
        mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers", "feathers-v4"]))
        server = FeathersClient(base: try mock.url(for: "feathers").absoluteString)
        v4 = FeathersClient(base: try mock.url(for: "feathers-v4").absoluteString)
    }

    private func login(_ client: FeathersClient? = nil, email: String = "test@example.com", password: String = "secret") async throws -> String {
        let reply = try await (client ?? server).send("POST", "/authentication", json: #"{"strategy": "local", "email": "\#(email)", "password": "\#(password)"}"#)
        return try #require(reply.json["accessToken"]?.stringValue, "\(reply.status) \(reply.text)")
    }

    private var port: Int { get throws { try #require(mock.url(for: "feathers").port) } }

    // MARK: Item 6: methods

    @Test func anUnknownMethodIsNamedAsReceived() throws {
        let reply = try rawExchange(port: try port, "PURGE /feathers/messages HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(reply.statusLine == "HTTP/1.1 405 Method Not Allowed")
        #expect(reply.text == #"{"name":"MethodNotAllowed","message":"Method PURGE not allowed","code":405,"className":"method-not-allowed"}"#)
        let v4Reply = try rawExchange(port: try port, "MKCOL /feathers-v4/people/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(v4Reply.text == #"{"name":"MethodNotAllowed","message":"Method MKCOL not allowed","code":405,"className":"method-not-allowed","errors":{}}"#)
    }

    @Test(arguments: ["PUSH", "FOO", "get", "DESCRIBE", "PRI"])
    func aMethodNodesParserRefusesIsItsBare400(method: String) throws {
        let connection = try RawConnection(port: try port)
        try connection.send("\(method) /feathers/messages HTTP/1.1\r\nHost: x\r\n\r\nGET /feathers/people HTTP/1.1\r\nHost: x\r\n\r\n")
        let (bytes, end) = connection.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        // Node's bytes are the status line and Connection: close; the transport adds its
        // Content-Length and Date. No body, and the request behind it is never answered.
        let date = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("Date: ") })
        #expect(text == "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\(date)\r\n\r\n")
        #expect(end == .closed)
    }

}
