#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MockStackAuth
import MockStackCore
import Testing
@testable import MockStackServiceStack

/// The test host's authentication flows (docs/servicestack.md#authentication) and AI Server's API key.
/// The cookies a response sets, by name (the last of a name wins).
private func cookies(_ response: HTTPResponse) -> [String: String] {
    Dictionary(response.headers.values(for: "Set-Cookie").map { line in
        let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
        return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
    }, uniquingKeysWith: { _, last in last })
}

@Suite struct AuthTests {
    private func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser().parse(response.body).root }

    /// Each issuer writes its claims in its own order, every time; unset ones are left out.
    @Test func claimsAreWrittenInTheIssuersOrder() {
        var claims = TokenClaims(subject: "1", issuedAt: Date(timeIntervalSince1970: 1_700_000_000), expiration: Date(timeIntervalSince1970: 1_700_003_600), id: "j")
        claims.audience = "a"
        claims.issuer = "i"
        claims.email = "e@x"
        claims.name = "N"
        claims.roles = ["R"]
        claims.sessionId = "s"
        #expect(claims.payload(in: .serviceStack).keys == ["iss", "sub", "iat", "exp", "aud", "email", "name", "roles", "jti", "sid"])
        #expect(claims.payload(in: .jsonWebToken).keys == ["iat", "exp", "aud", "iss", "sub", "jti", "name", "email", "roles", "sid"])
        #expect(JSONValue.object(claims.payload(in: .jsonWebToken)).encoded() == Array(
            #"{"iat":1700000000,"exp":1700003600,"aud":"a","iss":"i","sub":"1","jti":"j","name":"N","email":"e@x","roles":["R"],"sid":"s"}"#.utf8))
    }

    @Test func credentialsSignInSetsTheTokenCookies() throws {
        let response = TestHost.call(.post, "/api/Authenticate", json: #"{"provider":"credentials","userName":"test","password":"test"}"#)
        #expect(response.status == 200)
        let body = try json(response)
        #expect(body["userId"] == "1")
        #expect(body["userName"] == "test")
        #expect(body["displayName"] == "test DisplayName")
        #expect(body["roles"] == ["TheRole"])
        #expect(body["permissions"] == ["ThePermission"])
        #expect(body["sessionId"]?.stringValue?.isEmpty == false)
        let set = cookies(response)
        #expect(Set(set.keys) == ["ss-tok", "ss-reftok", "ss-id", "ss-pid"])
        #expect(set["ss-tok"] == body["bearerToken"]?.stringValue)
        #expect(set["ss-reftok"] == body["refreshToken"]?.stringValue)
        // The token cookies named, for clients that cannot read them (TypeScript's useTokenCookie).
        #expect(response.headers["X-Cookies"] == "ss-tok,ss-reftok")
        #expect(set["ss-tok"]?.split(separator: ".").count == 3)
        // As ServiceStack writes them on ASP.NET Core; `/` here, where the app is mounted at the root.
        #expect(response.headers.values(for: "Set-Cookie") == [
            "ss-tok=\(set["ss-tok"]!); expires=Fri, 05 Dec 2025 22:15:03 GMT; path=/; samesite=lax; httponly",
            "ss-reftok=\(set["ss-reftok"]!); expires=Sat, 21 Nov 2026 22:15:03 GMT; path=/; samesite=lax; httponly",
            "ss-id=\(set["ss-id"]!); path=/; samesite=lax; httponly",
            "ss-pid=\(set["ss-id"]!); expires=Thu, 16 Nov 2045 22:15:03 GMT; path=/; samesite=lax; httponly",
        ])

        // The cookies alone authenticate the next call.
        let cookieHeader = set.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let secured = TestHost.call(.get, "/api/TestAuth", headers: ["Cookie": cookieHeader])
        #expect(secured.status == 200)
        #expect(try json(secured)["userName"] == "test")
    }

    @Test func basicAuthAndWrongPasswords() throws {
        let basic = TestHost.call(.post, "/api/Authenticate", json: "{}", headers: ["Authorization": "Basic dGVzdDI6dGVzdDI="])
        #expect(basic.status == 200)
        #expect(try json(basic)["userId"] == "2")
        #expect(try json(basic)["refreshToken"]?.stringValue?.isEmpty == false)

        #expect(basic.headers["X-Cookies"] == "ss-tok,ss-reftok")

        let wrong = TestHost.call(.post, "/api/Authenticate", json: #"{"provider":"credentials","userName":"test","password":"nope"}"#)
        #expect(wrong.status == 401)
        #expect(wrong.headers["X-Cookies"] == nil)
        #expect(wrong.text.hasPrefix(#"{"responseStatus":{"errorCode":"Unauthorized","message":"Invalid Username or Password","stackTrace":"#))
    }

    @Test func protectedOperationsNeedASessionAndTheRightRole() throws {
        let anonymous = TestHost.call(.get, "/api/TestAuth")
        #expect(anonymous.status == 401)
        #expect(anonymous.reasonPhrase == "Unauthorized")
        #expect(anonymous.body.isEmpty)
        #expect(anonymous.contentType == nil)
        #expect(TestHost.call(.get, "/api/RequiresAdmin?id=1").status == 401)

        let user = try json(TestHost.call(.post, "/api/Authenticate", json: #"{"userName":"test","password":"test"}"#))
        let userToken = try #require(user["bearerToken"]?.stringValue)
        #expect(TestHost.call(.get, "/api/RequiresAdmin?id=1", headers: ["Authorization": "Bearer \(userToken)"]).status == 403)
        let admin = try json(TestHost.call(.post, "/api/Authenticate", json: #"{"userName":"admin","password":"test"}"#))
        let adminToken = try #require(admin["bearerToken"]?.stringValue)
        let allowed = TestHost.call(.get, "/api/RequiresAdmin?id=7", headers: ["Authorization": "Bearer \(adminToken)"])
        #expect(allowed.text == #"{"id":7}"#)
    }

    @Test func createJwtTokensAuthenticateAndExpire() throws {
        let created = TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1","displayName":"test jwt","email":"test@auth.com","createdAt":"0001-01-01T00:00:00","isAuthenticated":true}"#)
        let token = try #require(try json(created)["token"]?.stringValue)
        let me = TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Bearer \(token)"])
        #expect(me.status == 200)
        let body = try json(me)
        #expect(body["userId"] == "1")
        #expect(body["displayName"] == "test jwt")
        #expect(body["sessionId"]?.stringValue?.isEmpty == false)

        let expired = try #require(try json(TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1","jwtExpiry":"2000-01-01T00:00:00Z"}"#))["token"]?.stringValue)
        let refused = TestHost.call(.get, "/api/Hello?name=x", headers: ["Authorization": "Bearer \(expired)"])
        #expect(refused.status == 401)
        #expect(refused.text.contains(#""errorCode":"TokenException","message":"Token has expired""#))
    }

    /// A bearer token is taken only when HS256 under the app's own secret signed exactly what it
    /// carries: no `alg: none`, no other key, no other algorithm named, no edited payload.
    @Test func unsignedForgedAndForeignTokensAreRefused() throws {
        let token = try #require(try json(TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1"}"#))["token"]?.stringValue)
        let parts = token.split(separator: ".").map(String.init)
        let payload = parts[1]
        func refusal(_ candidate: String) -> String {
            let response = TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Bearer \(candidate)"])
            return response.status == 401 ? (try? json(response)["responseStatus"]?["message"]?.stringValue) ?? "401 without a message" : "status \(response.status)"
        }
        #expect(TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        let none = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        #expect(refusal(none + "." + payload + ".") == "Illegal base64url string!")
        #expect(refusal(none + "." + payload + "." + parts[2]) == "Invalid Signature")
        // A header naming another algorithm, signed correctly with the app's secret: still refused.
        let secret = HS256Tokens(secret: "mockstack-test-host-signing-secret-0001")
        let hs512 = Base64URL.encode(Array(#"{"alg":"HS512","typ":"JWT"}"#.utf8)) + "." + payload
        #expect(secret.signature(of: parts[0] + "." + payload) == parts[2], "the test knows the app's secret")
        #expect(refusal(hs512 + "." + secret.signature(of: hs512)) == "Invalid Signature")
        let foreign = HS256Tokens(secret: "some-other-secret").sign(TokenClaims(subject: "1", issuedAt: Date(), expiration: Date().addingTimeInterval(600), id: "x"))
        #expect(refusal(foreign) == "Invalid Signature")
        var claims = try #require(JSONParser().parse(Base64URL.decode(payload) ?? []).root.objectValue)
        claims["sub"] = "2"
        #expect(refusal(parts[0] + "." + Base64URL.encode(JSONValue.object(claims).encoded()) + "." + parts[2]) == "Invalid Signature")
    }

    @Test func refreshTokensRenewAccessAndAreAcceptedAsBearers() throws {
        let signIn = try json(TestHost.call(.post, "/api/Authenticate", json: #"{"userName":"test","password":"test"}"#))
        let refresh = try #require(signIn["refreshToken"]?.stringValue)
        let first = TestHost.call(.post, "/api/GetAccessToken", json: #"{"refreshToken":"\#(refresh)"}"#)
        #expect(first.status == 200)
        // The token travels in the cookie only, as the test host's token cookies have it.
        #expect(first.text == #"{"meta":{}}"#)
        let firstToken = try #require(cookies(first)["ss-tok"])
        #expect(first.headers["Set-Cookie"] == "ss-tok=\(firstToken); expires=Fri, 05 Dec 2025 22:15:03 GMT; path=/; samesite=lax; httponly")
        #expect(firstToken != signIn["bearerToken"]?.stringValue)

        // `{}` plus the refresh cookie, as the Swift client's automatic refresh sends it.
        let viaCookie = TestHost.call(.post, "/api/GetAccessToken", json: "{}", headers: ["Cookie": "ss-reftok=\(refresh)"])
        #expect(viaCookie.text == #"{"meta":{}}"#)
        #expect(cookies(viaCookie)["ss-tok"].map { $0 != firstToken } == true)

        #expect(TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Bearer \(refresh)"]).status == 200)

        let invalid = TestHost.call(.post, "/api/GetAccessToken", json: #"{"refreshToken":"Invalid.Refresh.Token"}"#)
        #expect(invalid.status == 400)
        #expect(invalid.text.hasPrefix(#"{"responseStatus":{"errorCode":"ArgumentException","message":"Illegal base64url string!","#))
        let expiredRefresh = try #require(try json(TestHost.call(.post, "/api/CreateRefreshJwt", json: #"{"jwtExpiry":"2000-01-01T00:00:00Z"}"#))["token"]?.stringValue)
        let expired = TestHost.call(.post, "/api/GetAccessToken", json: #"{"refreshToken":"\#(expiredRefresh)"}"#)
        #expect(expired.status == 401)
        #expect(expired.text.contains(#""errorCode":"TokenException","message":"Token has expired""#))
    }

    @Test func invalidatingATokenRejectsItFromThenOn() throws {
        let token = try #require(try json(TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1"}"#))["token"]?.stringValue)
        let bearer: HTTPHeaders = ["Authorization": "Bearer \(token)"]
        #expect(TestHost.call(.get, "/api/TestAuth", headers: bearer).status == 200)
        #expect(TestHost.call(.post, "/api/InvalidateLastAccessToken", json: "{}", headers: bearer).text == "{}")
        let after = TestHost.call(.get, "/api/TestAuth", headers: bearer)
        #expect(after.status == 401)
        #expect(after.text.contains("Token has been invalidated"))
    }

    @Test func logoutClearsTheCookies() throws {
        let response = TestHost.test.respond(to: HTTPRequest(method: .post, target: "/api/Authenticate", headers: ["Content-Type": "application/json"],
                                                             body: Array(#"{"provider":"logout"}"#.utf8), mountPath: "/test"))
        #expect(response.status == 200)
        // ServiceStack deletes a cookie by setting it empty, expired a day ago.
        #expect(response.headers.values(for: "Set-Cookie") == ["ss-tok", "ss-reftok", "ss-id", "ss-pid"].map {
            "\($0)=; expires=Thu, 20 Nov 2025 22:15:03 GMT; path=/test; samesite=lax; httponly"
        })
    }

    /// A sign-in on one emulated host must not ride along to the others: every cookie is
    /// scoped to the app's mount (a session's prefix included), `/` at the root of an exposed port.
    @Test func cookiesAreScopedToTheAppsMount() {
        let signIn = #"{"userName":"test","password":"test"}"#
        for (mountPath, path) in [("/test", "/test"), ("/__session/s1/test", "/__session/s1/test"), ("", "/")] {
            let request = HTTPRequest(method: .post, target: "/api/Authenticate", headers: ["Content-Type": "application/json"],
                                      body: Array(signIn.utf8), mountPath: mountPath)
            let lines = TestHost.test.respond(to: request).headers.values(for: "Set-Cookie")
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { $0.contains("; path=\(path); samesite=lax; httponly") && !$0.hasSuffix("; Path=/") })
        }
    }

    /// ServiceStack's JwtAuthProvider: header `typ` then `alg`; claims in its order with no
    /// `sid`; a `sub` and `jti` that read as numbers written as numbers; `jti` counting up
    /// from 1 for access tokens and down from -1 for refresh tokens; `/` never escaped.
    @Test func tokensAreWrittenAsServiceStacksJwtProviderWritesThem() throws {
        let host = try TestHost.load("test")
        func decoded(_ token: String?, _ part: Int) throws -> String {
            let segment = try #require(token?.split(separator: ".").dropFirst(part).first)
            return String(decoding: try #require(Base64URL.decode(segment)), as: UTF8.self)
        }
        let signIn = try json(TestHost.call(.post, "/api/Authenticate", json: #"{"userName":"test","password":"test"}"#, app: host))
        let access = signIn["bearerToken"]?.stringValue
        #expect(try decoded(access, 0) == #"{"typ":"JWT","alg":"HS256"}"#)
        #expect(try decoded(access, 1) == #"{"sub":1,"iat":1763763303,"exp":1764972903,"email":"test@gmail.com","given_name":"First test","#
                + #""family_name":"Last test","name":"test DisplayName","preferred_username":"test","roles":["TheRole"],"perms":["ThePermission"],"jti":1}"#)
        let refresh = signIn["refreshToken"]?.stringValue
        #expect(try decoded(refresh, 0) == #"{"typ":"JWTR","alg":"HS256"}"#)
        #expect(try decoded(refresh, 1) == #"{"sub":1,"iat":1763763303,"exp":1795299303,"jti":-1}"#)

        let minted = try json(TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"u/7","displayName":"https://x.example/a/b"}"#, app: host))
        #expect(try decoded(minted["token"]?.stringValue, 1) == #"{"sub":"u/7","iat":1763763303,"exp":1764972903,"name":"https://x.example/a/b","jti":2}"#)
        // Tokens with numeric claims are read back: the session they stand for is the user's.
        let bearer: HTTPHeaders = ["Authorization": "Bearer \(access ?? "")"]
        #expect(try json(TestHost.call(.get, "/api/TestAuth", headers: bearer, app: host))["userId"] == "1")
        #expect(TestHost.call(.post, "/api/GetAccessToken", json: #"{"refreshToken":"\#(refresh ?? "")"}"#, app: host).status == 200)
    }

    @Test func aiServerNeedsAnAPIKey() throws {
        let ai = try TestHost.load("ai")
        let (headers, body) = multipart(fields: [], files: [("audio", "test_audio.wav", "audio/wav", "RIFF....WAVE")])
        let missing = TestHost.call(.post, "/api/SpeechToText", body: body, headers: headers, app: ai)
        #expect(missing.status == 401)
        #expect(missing.text == #"{"responseStatus":{"errorCode":"Unauthorized","message":"Invalid API Key","errors":[]}}"#)

        let keyed = TestHost.call(.post, "/api/SpeechToText", body: body, headers: headers.adding("Authorization", "Bearer ak-any"), app: ai)
        #expect(keyed.status == 200)
        let result = try json(keyed)
        #expect(result["results"]?.arrayValue?.count == 2)
        #expect(result["textOutputs"]?.arrayValue?.count == 2)
        #expect(result["results"]?.arrayValue?.first?["text"]?.stringValue?.contains("thermodynamics") == true)
    }
}

/// The flows the Python client's auth tests drive, as found in review.
@Suite struct AuthClientFlowTests {
    private func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser().parse(response.body).root }

    @Test func anInvalidatedTokenCookieIsNotRescuedByTheSessionCookie() throws {
        let signIn = TestHost.call(.post, "/api/Authenticate", json: #"{"userName":"test","password":"test"}"#)
        let sent = signIn.headers.values(for: "Set-Cookie").map { $0.split(separator: ";")[0] }.joined(separator: "; ")
        #expect(TestHost.call(.get, "/api/TestAuth", headers: ["Cookie": sent]).status == 200)
        #expect(TestHost.call(.post, "/api/InvalidateLastAccessToken", json: "{}", headers: ["Cookie": sent]).status == 200)
        // The 401 is what makes the client refresh through its ss-reftok cookie.
        #expect(TestHost.call(.get, "/api/TestAuth", headers: ["Cookie": sent]).status == 401)
        let refreshed = TestHost.call(.post, "/api/GetAccessToken", json: "{}", headers: ["Cookie": sent])
        #expect(refreshed.status == 200)
        let newToken = try #require(cookies(refreshed)["ss-tok"])
        #expect(TestHost.call(.get, "/api/TestAuth", headers: ["Cookie": "ss-tok=\(newToken)"]).status == 200)
    }

    @Test func basicCredentialsAuthenticateAProtectedCall() throws {
        let response = TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Basic dGVzdDp0ZXN0"])
        #expect(response.status == 200)
        #expect(try json(response)["userName"] == "test")
    }

    /// Wrong Basic credentials on an operation that requires authentication: the Basic
    /// provider's failed sign-in, with its reason, not the bare 401 of a caller with none.
    @Test func wrongBasicCredentialsAreRefusedWithTheReason() throws {
        let wrong = TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Basic dGVzdDp3cm9uZw=="])
        #expect(wrong.status == 401)
        #expect(wrong.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(wrong.text == #"{"responseStatus":{"errorCode":"Unauthorized","message":"Invalid Username or Password","stackTrace":"\n","errors":[]}}"#)
        let unknown = TestHost.call(.get, "/api/TestAuth", headers: ["Authorization": "Basic \(Data("nobody:x".utf8).base64EncodedString())"])
        #expect(unknown.text == wrong.text)
        // Where no authentication is required, wrong credentials leave the caller anonymous.
        let hello = TestHost.call(.get, "/api/Hello?name=World", headers: ["Authorization": "Basic dGVzdDp3cm9uZw=="])
        #expect(hello.status == 200)
        #expect(hello.text == #"{"result":"Hello, World!"}"#)
        // Without credentials, still the bare 401.
        let none = TestHost.call(.get, "/api/TestAuth")
        #expect(none.status == 401)
        #expect(none.text.isEmpty)
    }

    @Test func tokensCanBeMintedWhileHoldingAnExpiredOne() throws {
        let expired = try #require(try json(TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1","jwtExpiry":"2000-01-01T00:00:00Z"}"#))["token"]?.stringValue)
        let minted = TestHost.call(.post, "/api/CreateJwt", json: #"{"userAuthId":"1"}"#, headers: ["Authorization": "Bearer \(expired)"])
        #expect(minted.status == 200)
        #expect(TestHost.call(.get, "/api/Hello?name=x", headers: ["Authorization": "Bearer \(expired)"]).status == 401)
    }
}
