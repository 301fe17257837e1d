import MockStackCore
@testable import MockStackTransport
import Testing
import TestSupport

/// The head the transport writes itself, on the wire: `Date`, `Content-Length` and the default
/// type, persistence as the client asked, and nothing a response value could inject.
@Suite(.timeLimit(.minutes(3)))
struct ResponseHeadTests {
    @Test func addsDateLengthAndDefaultTypeButKeepsTheResponsesOwn() throws {
        try TransportTests.withServer(respond: { request in
            switch request.path {
            case "/plain": HTTPResponse(status: 200, body: Array("hi".utf8))
            case "/own": HTTPResponse(status: 201, headers: ["Content-Type": "text/plain", "Date": "Sun, 06 Nov 1994 08:49:37 GMT", "X-One": "1"], body: Array("made".utf8))
            default: HTTPResponse(status: 404)
            }
        }) { port, _ in
            let plain = try rawExchange(port: port, "GET /plain HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(plain.statusLine == "HTTP/1.1 200 OK")
            #expect(plain.header("Content-Length") == "2")
            #expect(plain.header("Content-Type") == "application/json; charset=utf-8")
            let date = try #require(plain.header("Date"))
            #expect(date.hasSuffix(" GMT") && date.count == 29)
            #expect(plain.text == "hi")

            let own = try rawExchange(port: port, "GET /own HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(own.statusLine == "HTTP/1.1 201 Created")
            #expect(own.headers.map(\.0) == ["Content-Type", "Date", "X-One", "Content-Length"])
            #expect(own.header("Date") == "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(own.text == "made")
        }
    }

    @Test func aResponseThatKeepsItsFieldsAsTheyAreGetsNoDefaultType() throws {
        var passedOn = HTTPResponse(status: 200, body: Array("bytes".utf8))
        passedOn.defaultsContentType = false
        let head = String(decoding: passedOn.head.bytes, as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n")
        #expect(passedOn != HTTPResponse(status: 200, body: Array("bytes".utf8)))
        // A copy made to change it keeps the choice.
        var changed = passedOn
        changed.headers.add("X-One", "1")
        #expect(String(decoding: changed.head.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nX-One: 1\r\nContent-Length: 5\r\n")
        #expect(String(decoding: changed.preparingHead().head.bytes, as: UTF8.self).contains("Content-Type") == false)
    }

    @Test(arguments: [204, 304])
    func bodilessStatusesSendNoLengthAndNoBody(status: Int) throws {
        try TransportTests.withServer(respond: { _ in HTTPResponse(status: status, headers: ["ETag": "\"x\""], body: Array("ignored".utf8)) }) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /b HTTP/1.1\r\nHost: t\r\n\r\n")
            let stream = connection.readToEnd(timeoutAfterFirstByte: true)
            let first = try #require(RawResponse.parse(stream))
            #expect(first.status == status)
            #expect(first.header("Content-Length") == nil)
            #expect(first.header("Content-Type") == nil)
            // The second reply follows the first head at once: no body bytes in between.
            let second = try #require(RawResponse.parse(Array(stream[first.length...])))
            #expect(second.status == status)
        }
    }

    /// The framing is the transport's: a response's own `Content-Length` or
    /// `Transfer-Encoding` never goes out beside the real one, so the next
    /// answer on the connection starts where the head says this one ends.
    @Test func neverSendsAResponsesOwnFramingHeaders() throws {
        try TransportTests.withServer(respond: { request in
            request.path == "/own"
                ? HTTPResponse(status: 200, headers: ["Content-Length": "999", "Transfer-Encoding": "chunked", "X-One": "1"], body: Array("made".utf8))
                : HTTPResponse(status: 200, body: Array("next".utf8))
        }) { port, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /own HTTP/1.1\r\nHost: t\r\n\r\n")
            let first = try connection.readResponse()
            #expect(first.headers.filter { $0.0 == "Content-Length" }.map(\.1) == ["4"])
            #expect(first.header("Transfer-Encoding") == nil)
            #expect(first.header("X-One") == "1")
            #expect(first.text == "made")
            try connection.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().text == "next")
        }
    }

    @Test func dropsInjectedHeadersAndFlattensTheReason() throws {
        try TransportTests.withServer(respond: { _ in
            HTTPResponse(status: 418, reason: "On a\r\ntea break", headers: ["X-Bad": "a\r\nSet-Cookie: x=1", "Bad Name": "v", "X-Good": "ok"])
        }) { port, _ in
            let response = try rawExchange(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.statusLine == "HTTP/1.1 418 On a  tea break")
            #expect(response.header("X-Good") == "ok")
            #expect(response.header("X-Bad") == nil)
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("Bad Name") == nil)
            #expect(response.header("Content-Length") == "0")
        }
    }

    /// A template may fill a field in from a request (a percent-decoded query value): a control
    /// byte there is not sent raw.
    @Test func dropsFieldsWithControlBytesButKeepsTabs() throws {
        try TransportTests.withServer(respond: { _ in
            HTTPResponse(status: 200, headers: ["X-Nul": "a\u{0}b", "X-Escape": "\u{1B}[31m", "X-Delete": "a\u{7F}", "X-Tab": "a\tb",
                                                "Content-Type": "text/x\u{1}y"], body: Array("x".utf8))
        }) { port, _ in
            let response = try rawExchange(port: port, "GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(response.headers.map(\.0) == ["X-Tab", "Content-Length", "Content-Type", "Date"])
            #expect(response.header("X-Tab") == "a\tb")
            // The unsendable type dropped, the body gets the default one.
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func closesWhenTheClientAsksOrTheResponseSays() throws {
        try TransportTests.withServer(respond: { request in
            request.path == "/bye" ? HTTPResponse(status: 200, headers: ["Connection": "close"], body: Array("x".utf8)) : .json(200, ["ok": true])
        }) { port, _ in
            for (request, expected) in [("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", "close"),
                                        ("GET /bye HTTP/1.1\r\nHost: t\r\n\r\n", "close"),
                                        // HTTP/1.0 closes unless asked not to, and the answer says so.
                                        ("GET / HTTP/1.0\r\n\r\n", "close")] as [(String, String?)] {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let (bytes, end) = connection.readToEnd()
                let response = try #require(RawResponse.parse(bytes))
                #expect(response.status == 200)
                #expect(response.header("Connection") == expected)
                #expect(end == .closed, "the server ends the connection after \(request.debugDescription)")
            }
        }
    }

    @Test func keepsAnHTTP10KeepAliveConnectionOpen() throws {
        try TransportTests.withServer { port, _ in
            let connection = try RawConnection(port: port)
            for path in ["/one", "/two"] {
                try connection.send("GET \(path) HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.header("Connection") == "keep-alive")
                #expect(response.text.contains("\"path\":\"\(path)\""))
            }
        }
    }
}
