import Foundation
import MockStack
import MockStackInProcess
import MockStackTesting
import Testing

/// Feathers real-time end to end: real python-socketio clients on the real server over loopback,
/// on long-polling, on a WebSocket from the start, and upgrading from one to the other
/// (docs/feathers-realtime.md). Skipped without the clients, unless make test requires them.
@Suite(.timeLimit(.minutes(3)), .enabled(if: SocketIOClients.available || SocketIOClients.required, "\(SocketIOClients.missingMessage)"))
struct FeathersRealtimeTests {
    static let transports = ["polling", "websocket", "polling,websocket"]

    /// What the `methods` scenario sees, every ack exact, on the transport it ended on.
    static func methodsOutput(transport: String) -> String {
        #"{"create": [null, {"age": 36, "id": 0, "name": "Ada"}], "find": [null, [{"age": 36, "id": 0, "name": "Ada"}]], "get": [null, {"age": 36, "id": 0, "name": "Ada"}], "missing": [{"className": "not-found", "code": 404, "message": "No record found for id '999'", "name": "NotFound"}], "notAllowed": [{"className": "method-not-allowed", "code": 405, "message": "Method 'find' not allowed on service 'authentication'", "name": "MethodNotAllowed"}], "patch": [null, {"age": 38, "id": 0, "name": "Ada L."}], "protected": [{"className": "not-authenticated", "code": 401, "message": "Not authenticated", "name": "NotAuthenticated"}], "remove": [null, {"age": 38, "id": 0, "name": "Ada L."}], "tooManyArguments": [{"className": "bad-request", "code": 400, "message": "Too many arguments for 'find' method", "name": "BadRequest"}], "transport": "\#(transport)", "unknownService": [{"className": "not-found", "code": 404, "message": "Service 'nope' not found", "name": "NotFound"}], "update": [null, {"age": 37, "id": 0, "name": "Ada L."}]}"#
    }

    /// A server of its own with both Feathers apps, for one scenario.
    func run(_ python: String?, app: String = "feathers", _ scenario: String, transports: String = "polling,websocket") throws -> String {
        let mock = try InProcessMockStack(configuration: MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers", "feathers-v4"]))
        defer { mock.stop() }
        return try SocketIOClients.run(python, origin: mock.baseURL.absoluteString, path: app + "/socket.io", scenario: scenario, transports: transports)
    }

    @Test(arguments: transports)
    func everyMethodAndItsErrorsOverTheSocket(_ transports: String) throws {
        let output = try run(SocketIOClients.release5, "methods", transports: transports)
        let transport = transports == "polling" ? "polling" : "websocket"
        #expect(output == Self.methodsOutput(transport: transport))
    }

    /// On the app's own port (`--expose feathers=PORT`) Engine.IO sits at `/socket.io/`, where a
    /// client looks by default.
    @Test func anExposedAppAnswersAtTheDefaultPath() throws {
        var configuration = MockStackConfiguration(fixtures: [ServerTests.fixtures], apps: ["feathers"])
        configuration.exposed = [(app: "feathers", port: 0)]
        let mock = try InProcessMockStack(configuration: configuration)
        defer { mock.stop() }
        let port = try #require(mock.ready.exposed.first { $0.name == "feathers" }?.port)
        let output = try SocketIOClients.run(SocketIOClients.release5, origin: "http://127.0.0.1:\(port)", path: "socket.io", scenario: "methods",
                                             transports: "polling,websocket")
        #expect(output == Self.methodsOutput(transport: "websocket"))
    }

    /// Anonymous connections hear nothing; a signed-in one hears socket and REST changes alike,
    /// until it signs out.
    @Test(arguments: transports)
    func eventsFollowTheGeneratedAppsChannels(_ transports: String) throws {
        let output = try run(SocketIOClients.release5, "channels", transports: transports)
        #expect(output == #"{"afterLogout": [], "anonymousHeard": [], "findAfterLogout": [null, []], "loggedOut": true, "memberHeard": [["people created", {"id": 0, "name": "Bo"}], ["people patched", {"age": 4, "id": 0, "name": "Bo"}], ["messages created", {"createdAt": "now", "id": 3, "text": "hi", "userId": 0}]], "restStatus": 200, "signedIn": ["accessToken", "authentication", "user"]}"#)
    }

    /// The data schemas hold over the socket too (docs/feathers.md#data-schemas): Ajv's refusal is the
    /// acknowledgement's error, and nothing is stored.
    @Test func dataIsCheckedByTheSchemaOverTheSocket() throws {
        let output = try run(SocketIOClients.release5, "data_schemas")
        func refusal(_ property: String, _ type: String) -> String {
            ##"{"className": "bad-request", "code": 400, "data": [{"instancePath": "/\##(property)", "keyword": "type", "message": "must be \##(type)", "params": {"type": "\##(type)"}, "schemaPath": "#/properties/\##(property)/type"}], "message": "validation failed", "name": "BadRequest"}"##
        }
        #expect(output == #"{"message": [\#(refusal("text", "string"))], "people": [null, []], "person": [\#(refusal("age", "number"))]}"#)
    }

    /// The users service's restriction (ownRecordsOnly) holds over the socket too: the same engine.
    @Test func aSignedInSocketReachesItsOwnUserRecordOnly() throws {
        let output = try run(SocketIOClients.release5, "own_records")
        let notFound = #"{"className": "not-found", "code": 404, "message": "No record found for id '0'", "name": "NotFound"}"#
        #expect(output == #"{"found": [null, [{"email": "own@example.com", "id": 1}]], "other": [\#(notFound)], "otherPatch": [\#(notFound)], "own": [null, {"email": "own@example.com", "id": 1}]}"#)
    }

    @Test func aHandshakeTokenSignsInAndABadOneIsRefused() throws {
        let output = try run(SocketIOClients.release5, "handshake_token")
        #expect(output == #"{"created": [null, {"createdAt": "now", "id": 3, "text": "with a header", "userId": 0}], "refused": "One or more namespaces failed to connect: /"}"#)
    }

    @Test func aSessionsSocketsSeeThatSessionOnly() throws {
        let output = try run(SocketIOClients.release5, "sessions")
        #expect(output == #"{"created": [null, {"id": 0, "name": "In alpha"}], "inside": [null, [{"id": 0, "name": "In alpha"}]], "outside": [null, []], "outsideHeard": []}"#)
    }

    /// The control plane lists the sockets, pushes an event to signed-in ones, holds events
    /// back, drops a socket, and journals the calls and events.
    @Test func theControlPlaneSeesAndSteersSockets() throws {
        let output = try run(SocketIOClients.release5, "control")
        #expect(output == #"{"delayed": {"app": "feathers", "eventDelayMs": 200}, "delays": {"feathers": 0, "feathers-v4": 0}, "dropped": 204, "guestConnected": false, "journaledCalls": [["authentication.create", true]], "journaledEvents": [["announcement", ["hi", 1], 1]], "listed": [["feathers", false, ["anonymous"], "websocket", "Engine.IO 4, Socket.IO 5"], ["feathers", true, ["authenticated"], "websocket", "Engine.IO 4, Socket.IO 5"]], "memberHeard": [["announcement", ["hi", 1]]], "pushed": {"sent": 1}, "remaining": 1}"#)
    }

    /// The v4 app speaks Engine.IO 3 and Feathers 4's legacy socket events.
    @Test(arguments: transports)
    func theV4AppTakesEngineIO3AndTheLegacyEvents(_ transports: String) throws {
        let output = try run(SocketIOClients.release4, app: "feathers-v4", "legacy", transports: transports)
        let transport = transports == "polling" ? "polling" : "websocket"
        #expect(output == #"{"authenticated": ["accessToken", "authentication", "user"], "created": [null, {"id": 0, "name": "Cy"}], "found": [null, [{"id": 0, "name": "Cy"}]], "heard": [["people created", {"id": 0, "name": "Cy"}]], "standard": [null, {"id": 0, "name": "Cy"}], "transport": "\#(transport)"}"#)
    }

    /// A v5 app refuses Engine.IO 3 as a generated app does (no `allowEIO3`).
    @Test func theV5AppRefusesEngineIO3Clients() throws {
        #expect(try run(SocketIOClients.release4, "refused", transports: "polling") == #"{"error": "Unexpected status code 400 in server response"}"#)
    }
}
