import Foundation
import MockStackAuth
import MockStackCore
import MockStackFeathers
import MockStackSocketIO
import Synchronization
import Testing

/// Feathers over Socket.IO, as values: a connection's packets in, its packets out.
@Suite struct SocketConnectionTests {
    /// What a connection sent, and whether it closed its session.
    final class Wire: Sendable {
        let sent = Mutex<[String]>([])
        let closes = Mutex(0)
        var output: FeathersSocketConnection.Output {
            FeathersSocketConnection.Output(send: { text in self.sent.withLock { $0.append(text) } },
                                            close: { self.closes.withLock { $0 += 1 } })
        }
        /// Everything sent since the last call.
        func take() -> [String] { sent.withLock { sent in defer { sent = [] }; return sent } }
    }

    static func makeApp(_ dialect: FeathersDialect = .v5) -> FeathersApp {
        var users = ServiceOptions(path: "users")
        users.dialect = dialect
        users.secretField = "password"
        users.authenticate = [.find, .get, .update, .patch, .remove]
        var messages = ServiceOptions(path: "messages")
        messages.dialect = dialect
        messages.authenticate = Set(ServiceMethod.allCases)
        var people = ServiceOptions(path: "people")
        people.dialect = dialect
        var generated = ServiceOptions(path: "notes")
        generated.dialect = dialect
        generated.methods = [.find, .get, .create, .patch, .remove]
        let user: JSONObject = ["id": 0, "email": "test@example.com", "password": .string(PasswordHasher.hash("secret"))]
        return FeathersApp(
            name: "feathers", mount: "/feathers", dialect: dialect,
            services: [MemoryService(options: users, seed: [user]), MemoryService(options: messages, seed: []),
                       MemoryService(options: people, seed: [["id": 0, "name": "Ada", "age": 36]]),
                       MemoryService(options: generated, seed: [])],
            authentication: FeathersAuthentication(secret: "socket-tests", dialect: dialect),
            clock: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    static let signIn = #"20["create","authentication",{"strategy":"local","email":"test@example.com","password":"secret"},{}]"#

    func connected(_ app: FeathersApp, authorization: String? = nil) -> (FeathersSocketConnection, Wire) {
        let wire = Wire()
        let connection = FeathersSocketConnection(app: app, id: "socket-1", handshakeAuthorization: authorization, output: wire.output)
        connection.opened()
        connection.received("0")
        return (connection, wire)
    }

    @Test func revision5ClientsJoinWithConnectAndGetTheirSocketID() throws {
        let wire = Wire()
        let connection = FeathersSocketConnection(app: Self.makeApp(), id: "socket-1", handshakeAuthorization: nil, output: wire.output)
        connection.opened()
        #expect(wire.take() == [])
        connection.received("0")
        #expect(wire.take() == [#"0{"sid":"socket-1"}"#])
        #expect(connection.channels == [.anonymous])
    }

    @Test func anEventBeforeConnectOrAnUnreadablePacketClosesTheSession() throws {
        let wire = Wire()
        let connection = FeathersSocketConnection(app: Self.makeApp(), id: "s", handshakeAuthorization: nil, output: wire.output)
        connection.received(#"21["find","people"]"#)
        #expect(wire.closes.withLock { $0 } == 1)
        connection.received("2{}")
        #expect(wire.closes.withLock { $0 } == 2)
        #expect(wire.take() == [])
    }

    @Test func otherNamespacesAreRefused() throws {
        let (connection, wire) = connected(Self.makeApp())
        _ = wire.take()
        connection.received("0/feathers,")
        #expect(wire.take() == [#"4/feathers,{"message":"Invalid namespace"}"#])
    }

    @Test func serviceCallsAreAcknowledgedWithErrorFirst() throws {
        let (connection, wire) = connected(Self.makeApp())
        _ = wire.take()
        connection.received(#"21["find","people",{"age":{"$gt":20}}]"#)
        connection.received(#"22["get","people",0,{}]"#)
        connection.received(#"23["create","people",{"name":"Alice","age":30},{}]"#)
        connection.received(#"24["patch","people",1,{"age":31},{}]"#)
        connection.received(#"25["remove","people",1]"#)
        #expect(wire.take() == [
            #"31[null,[{"id":0,"name":"Ada","age":36}]]"#,
            #"32[null,{"id":0,"name":"Ada","age":36}]"#,
            #"33[null,{"name":"Alice","age":30,"id":1}]"#,
            #"34[null,{"name":"Alice","age":31,"id":1}]"#,
            #"35[null,{"name":"Alice","age":31,"id":1}]"#,
        ])
    }

    @Test func callErrorsAreFeathersErrorsAsRESTWritesThem() throws {
        let (connection, wire) = connected(Self.makeApp())
        _ = wire.take()
        connection.received(#"20["get","people",999]"#)
        connection.received(#"21["find","nope",{}]"#)
        connection.received(#"22["find",["people",{}]]"#)
        connection.received(#"23["find","authentication",{}]"#)
        connection.received(#"24["find","people",{},1]"#)
        connection.received(#"25["patch","people",null,{"age":1},{}]"#)
        connection.received(#"26["update","people",null,{"name":"x"},{}]"#)
        connection.received(#"27["find","messages",{}]"#)
        #expect(wire.take() == [
            #"30[{"name":"NotFound","message":"No record found for id '999'","code":404,"className":"not-found"}]"#,
            #"31[{"name":"NotFound","message":"Service 'nope' not found","code":404,"className":"not-found"}]"#,
            #"32[{"name":"NotFound","message":"Invalid service path","code":404,"className":"not-found"}]"#,
            #"33[{"name":"MethodNotAllowed","message":"Method 'find' not allowed on service 'authentication'","code":405,"className":"method-not-allowed"}]"#,
            #"34[{"name":"BadRequest","message":"Too many arguments for 'find' method","code":400,"className":"bad-request"}]"#,
            #"35[{"name":"MethodNotAllowed","message":"Can not patch multiple entries","code":405,"className":"method-not-allowed"}]"#,
            #"36[{"name":"BadRequest","message":"You can not replace multiple instances. Did you mean 'patch'?","code":400,"className":"bad-request"}]"#,
            #"37[{"name":"NotAuthenticated","message":"Not authenticated","code":401,"className":"not-authenticated"}]"#,
        ])
    }

    @Test func eventsWithoutAListenerGetNoAnswer() throws {
        let (connection, wire) = connected(Self.makeApp())
        _ = wire.take()
        for text in [#"21["frobnicate","people"]"#, #"22["people::find"]"#, #"23["authenticate",{"strategy":"local"}]"#, #"24["removed","people",0]"#, "25[7]"] {
            connection.received(text)
        }
        #expect(wire.take() == [])
        #expect(wire.closes.withLock { $0 } == 0)
    }

    @Test func signingInJoinsAuthenticatedAndLetsEventsThrough() throws {
        let app = Self.makeApp()
        let (connection, wire) = connected(app)
        let (listener, listenerWire) = connected(app)
        _ = wire.take()
        _ = listenerWire.take()
        // Anonymous connections hear no events, even of open services.
        connection.received(#"21["create","people",{"name":"Bo"},{}]"#)
        #expect(listenerWire.take() == [])
        listener.received(Self.signIn)
        let signedIn = try #require(listenerWire.take().first)
        #expect(signedIn.hasPrefix(#"30[null,{"accessToken":""#))
        #expect(listener.channels == [.authenticated])
        connection.received(#"22["patch","people",1,{"age":3},{}]"#)
        #expect(listenerWire.take() == [#"2["people patched",{"name":"Bo","id":1,"age":3}]"#])
        // Signing out leaves every channel.
        listener.received(#"24["remove","authentication",null,{}]"#)
        #expect(listenerWire.take().first?.hasPrefix(#"34[null,{"accessToken":""#) == true)
        #expect(listener.channels == [])
        connection.received(#"23["remove","people",1]"#)
        #expect(listenerWire.take() == [])
    }

    @Test func aSignedInConnectionCallsProtectedServicesWithoutAHeader() throws {
        let (connection, wire) = connected(Self.makeApp())
        connection.received(Self.signIn)
        _ = wire.take()
        connection.received(#"21["create","messages",{"text":"hi"},{}]"#)
        // The event goes out as the method returns, before the caller's acknowledgement (Feathers
        // gives no order between the two).
        #expect(wire.take() == [#"2["messages created",{"text":"hi","id":0}]"#, #"31[null,{"text":"hi","id":0}]"#])
    }

    @Test func restCallsReachSocketsToo() throws {
        let app = Self.makeApp()
        let (connection, wire) = connected(app)
        connection.received(Self.signIn)
        _ = wire.take()
        let response = app.respond(to: HTTPRequest(method: .post, target: "/people", headers: ["Content-Type": "application/json"],
                                                   body: Array(#"[{"name":"A"},{"name":"B"}]"#.utf8), mountPath: "/feathers"))
        // Not a multi service: refused, and a failed call publishes nothing.
        #expect(response.status == 405, "\(response.debugDescription)")
        let delete = app.respond(to: HTTPRequest(method: .delete, target: "/people/0", mountPath: "/feathers"))
        #expect(delete.status == 200)
        #expect(wire.take() == [#"2["people removed",{"id":0,"name":"Ada","age":36}]"#])
    }

    @Test func logoutWithoutSigningInIsRefused() throws {
        let (connection, wire) = connected(Self.makeApp())
        _ = wire.take()
        connection.received(#"21["remove","authentication",null,{}]"#)
        #expect(wire.take() == [#"31[{"name":"NotAuthenticated","message":"Invalid authentication information (no `strategy` set)","code":401,"className":"not-authenticated"}]"#])
    }

    @Test func aHandshakeTokenSignsTheConnectionInOrRefusesIt() throws {
        let app = Self.makeApp()
        let (first, firstWire) = connected(app)
        _ = firstWire.take()
        first.received(Self.signIn)
        let ack = try #require(firstWire.take().first)
        let token = try #require(JSONParser().parse(String(ack.dropFirst(2))).root.arrayValue?[1]["accessToken"]?.stringValue)
        let (second, secondWire) = connected(app, authorization: "Bearer " + token)
        #expect(secondWire.take() == [#"0{"sid":"socket-1"}"#])
        // Signed in before the connection event, as Feathers' middleware does: in both channels.
        #expect(second.channels == [.anonymous, .authenticated])
        let (_, refusedWire) = connected(app, authorization: "Bearer not-a-token")
        #expect(refusedWire.take() == [#"4{"message":"jwt malformed","data":{"name":"JsonWebTokenError"}}"#])
    }

    @Test func aV4AppJoinsAtOnceAndTakesTheLegacyEvents() throws {
        let wire = Wire()
        let connection = FeathersSocketConnection(app: Self.makeApp(.v4), id: "s", handshakeAuthorization: nil, output: wire.output)
        connection.opened()
        #expect(wire.take() == ["0"])
        connection.received(#"21["authenticate",{"strategy":"local","email":"test@example.com","password":"secret"}]"#)
        #expect(wire.take().first?.hasPrefix(#"31[null,{"accessToken":""#) == true)
        #expect(connection.channels == [.authenticated])
        connection.received(#"22["people::get",0]"#)
        #expect(wire.take() == [#"32[null,{"id":0,"name":"Ada","age":36}]"#])
        // `logout` with an argument where its callback belongs: signed out, no acknowledgement.
        connection.received(#"23["logout",[]]"#)
        #expect(wire.take() == [])
        #expect(connection.channels == [])
        connection.received("0/admin,")
        #expect(wire.take() == [#"4/admin,"Invalid namespace""#])
    }

    @Test func closingLeavesTheEventHub() throws {
        let app = Self.makeApp()
        let (connection, _) = connected(app)
        #expect(app.events.count == 1)
        connection.closed()
        #expect(app.events.count == 0)
        connection.received("0")
        #expect(app.events.count == 0)
    }
}

extension SocketConnectionTests {
    @Test func anExpiredTokenDisconnectsTheConnection() throws {
        let clock = EngineIOEndpointTests.ManualClock()
        let wire = Wire()
        let connection = FeathersSocketConnection(app: Self.makeApp(), id: "s", handshakeAuthorization: nil, output: wire.output, clock: clock)
        connection.received("0")
        connection.received(Self.signIn)
        _ = wire.take()
        // The token lives a day: its expiry is armed for then (the app's clock stands still).
        #expect(clock.pending == [86_400_000])
        clock.fire(86_400_000)
        #expect(wire.take() == ["1"])
        #expect(connection.channels == [])
        // Signing out first disarms it.
        connection.received("0")
        connection.received(Self.signIn)
        connection.received(#"21["remove","authentication",null,{}]"#)
        #expect(clock.pending == [])
    }
}

/// `compat.swiftSocket`: feathers-swift-socketio 4.0.1's frames, refused by a faithful app.
extension SocketConnectionTests {
    static func compatApp(_ dialect: FeathersDialect) -> FeathersApp {
        let template = makeApp(dialect)
        return FeathersApp(name: template.name, mount: template.mount, dialect: dialect, services: template.services,
                           authentication: template.authentication, clock: { Date(timeIntervalSince1970: 1_800_000_000) },
                           compat: FeathersCompat(swiftSocket: true))
    }

    @Test(arguments: [FeathersDialect.v5, .v4])
    func swiftSocketUnwrapsNestedCallsAndTakesRemovedAndAuthenticate(_ dialect: FeathersDialect) throws {
        let (connection, wire) = connected(Self.compatApp(dialect))
        _ = wire.take()
        connection.received(#"21["find",["people",{}]]"#)
        connection.received(#"22["removed",["people",0,{}]]"#)
        connection.received(#"23["authenticate",{"strategy":"local","email":"test@example.com","password":"secret"}]"#)
        let sent = wire.take()
        #expect(sent.count == 3)
        #expect(sent[0] == #"31[null,[{"id":0,"name":"Ada","age":36}]]"#)
        #expect(sent[1] == #"32[null,{"id":0,"name":"Ada","age":36}]"#)
        #expect(sent[2].hasPrefix(#"33[null,{"accessToken":""#))
        #expect(connection.channels == [.authenticated])
        // `logout` with FeathersSwift's empty array where the callback belongs: signed out, no answer.
        connection.received(#"24["logout",[]]"#)
        #expect(wire.take() == [])
        #expect(connection.channels == [])
    }

    @Test func withoutTheSwitchTheSameFramesAreRefusedAsFeathersDoes() throws {
        let (connection, wire) = connected(Self.makeApp(.v4))
        _ = wire.take()
        connection.received(#"21["find",["people",{}]]"#)
        connection.received(#"22["removed",["people",0,{}]]"#)
        #expect(wire.take() == [#"31[{"name":"NotFound","message":"Invalid service path","code":404,"className":"not-found","errors":{}}]"#])
    }
}
