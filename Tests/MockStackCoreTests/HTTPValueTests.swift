import MockStackCore
import Testing

@Suite struct HTTPValueTests {
    @Test(arguments: [
        ("/a/b?x=1&y", "/a/b", "x=1&y"),
        ("/a", "/a", nil),
        ("/a?", "/a", ""),
        ("/?q=%20é", "/", "q=%20é"),
        ("/caf%C3%A9/é?", "/caf%C3%A9/é", ""),
        ("/a#frag?x", "/a", nil),
        ("/a?x=1#frag", "/a", "x=1"),
        ("/a?x?y#z?", "/a", "x?y"),
        ("http://host:1/p?q", "/p", "q"),
        ("HTTPS://host", "/", nil),
        ("http://host?x=1", "/", "x=1"),
        ("h2c+x://host/p", "h2c+x://host/p", nil),
        ("*", "*", nil),
        ("", "/", nil),
    ] as [(String, String, String?)])
    func splitsTargets(target: String, path: String, query: String?) {
        let request = HTTPRequest(method: .get, target: target)
        #expect(request.path == path)
        #expect(request.query == query)
        #expect(request.target == target)
    }

    @Test func aConfiguredHeaderHoldsATokenNameAndVisibleASCIISpacesAndTabs() {
        #expect(ConfiguredHeaderText.problem(name: "X-Ok", value: "a b\tc ~!\"") == nil)
        #expect(ConfiguredHeaderText.problem(name: "X-Empty", value: "") == nil)
        let tail = "; a header value may hold visible ASCII, spaces and tabs"
        #expect(ConfiguredHeaderText.problem(name: "X-Cr", value: "a\rb") == "the value of X-Cr holds a control character (U+000D)" + tail)
        #expect(ConfiguredHeaderText.problem(name: "X-Esc", value: "\u{1B}[0m") == "the value of X-Esc holds a control character (U+001B)" + tail)
        #expect(ConfiguredHeaderText.problem(name: "X-Del", value: "\u{7F}") == "the value of X-Del holds a control character (U+007F)" + tail)
        #expect(ConfiguredHeaderText.problem(name: "X-Emoji", value: "ok 🙂") == "the value of X-Emoji holds a character outside ASCII (U+1F642)" + tail)
        #expect(ConfiguredHeaderText.problem(name: "X Space", value: "v") == "'X Space' is not a header name (a token: letters, digits and !#$%&'*+-.^_`|~)")
        #expect(ConfiguredHeaderText.problem(name: "", value: "v") == "'' is not a header name (a token: letters, digits and !#$%&'*+-.^_`|~)")
        #expect(ConfiguredHeaderText.problem(name: "X:Colon", value: "v") != nil)
    }

    @Test func routesRelativeToTheMount() {
        let request = HTTPRequest(method: .get, target: "/test/api/Hello?x=1").routed(toMount: "/test")
        #expect(request.path == "/api/Hello")
        #expect(request.mountPath == "/test")
        #expect(HTTPRequest(method: .get, target: "/test").routed(toMount: "/test").path == "/")
        #expect(HTTPRequest(method: .get, target: "/tést/é").routed(toMount: "/tést").path == "/é")
        #expect(HTTPRequest(method: .get, target: "/x").routed(toMount: "").path == "/x")
    }

    @Test func mountsOwnWholeSegments() {
        #expect(MountTable.mount("/test", owns: "/test"))
        #expect(MountTable.mount("/test", owns: "/test/api"))
        #expect(!MountTable.mount("/test", owns: "/testing"))
        #expect(!MountTable.mount("/test", owns: "/tes"))
        // Byte-wise, not canonical-equivalence: a decomposed é is another path.
        #expect(!MountTable.mount("/caf\u{E9}", owns: "/cafe\u{301}/x"))
    }

    @Test func mountsCompareBytesInSmallAndLargeStrings() {
        // Small strings (up to 15 bytes, kept inline) answer as large ones do.
        #expect(MountTable.mount("/a", owns: "/a") && !MountTable.mount("/ab", owns: "/a"))
        #expect(MountTable.mount("/long/long", owns: String(repeating: "/long", count: 10)))
        #expect(!MountTable.mount(String(repeating: "/long", count: 10), owns: "/long"))
        #expect(!MountTable.mount(Array("/caf\u{E9}".utf8), owns: "/cafe\u{301}"))
        #expect(MountTable.mount(Array("/te".utf8), owns: "/te/st") && !MountTable.mount(Array("/test".utf8), owns: "/te"))
    }

    /// A request's fields live in a shared box: changing a copy leaves the original alone.
    @Test func aChangedCopyOfARequestIsItsOwn() {
        let original = HTTPRequest(method: .post, target: "/a?b", headers: ["X": "1"], body: [1, 2])
        var copy = original
        #expect(copy == original)
        copy.path = "/changed"
        copy.headers.add("Y", "2")
        copy.body.append(3)
        #expect(original.path == "/a" && original.headers.count == 1 && original.body == [1, 2])
        #expect(copy.path == "/changed" && copy.headers.count == 2 && copy.body == [1, 2, 3] && copy.query == "b")
        #expect(copy != original)
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add("x-one", "2")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-ONE") == ["1", "2"])
        headers.set("X-One", "3")
        #expect(headers.values(for: "x-one") == ["3"])
    }

    @Test func rendersTheHeadWithLengthAndTypeButNotDate() {
        let response = HTTPResponse(status: 200, headers: ["ETag": "\"e\"", "X-Bad": "a\r\nb", "Connection": "close"], body: Array("abc".utf8))
        let head = response.head
        #expect(String(decoding: head.bytes, as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nETag: \"e\"\r\nConnection: close\r\nContent-Length: 3\r\nContent-Type: application/json; charset=utf-8\r\n")
        #expect(!head.hasDate)
        #expect(head.connection == "close")
        let notModified = HTTPResponse(status: 304, reason: "Not\nModified", headers: ["Date": "x"]).head
        #expect(String(decoding: notModified.bytes, as: UTF8.self) == "HTTP/1.1 304 Not Modified\r\nDate: x\r\n")
        #expect(notModified.hasDate)
    }

    @Test func aPreparedHeadIsDroppedWhenTheResponseChanges() {
        var response = HTTPResponse(status: 200, body: [1]).preparingHead()
        #expect(response == HTTPResponse(status: 200, body: [1]))
        response.body = [1, 2]
        #expect(String(decoding: response.head.bytes, as: UTF8.self).contains("Content-Length: 2\r\n"))
        response.headers.add("X-New", "1")
        #expect(String(decoding: response.head.bytes, as: UTF8.self).contains("X-New: 1\r\n"))
        response.status = 201
        #expect(response.head.bytes.starts(with: Array("HTTP/1.1 201 Created\r\n".utf8)))
    }

    @Test func aChangedCopyOfAResponseIsItsOwnAndKeepsNoStaleHead() {
        let original = HTTPResponse(status: 200, headers: ["X": "1"], body: [1, 2]).preparingHead()
        var copy = original
        #expect(copy == original)
        copy.headers.set("X", "2")
        copy.body.append(3)
        copy.operation = "changed"
        #expect(original.headers["X"] == "1" && original.body == [1, 2] && original.operation == nil)
        #expect(String(decoding: original.head.bytes, as: UTF8.self).contains("X: 1\r\nContent-Length: 2\r\n"))
        #expect(String(decoding: copy.head.bytes, as: UTF8.self).contains("X: 2\r\nContent-Length: 3\r\n"))
        #expect(copy != original)
        // Preparing a copy's head leaves the value it was copied from as it was.
        let plain = HTTPResponse(status: 200, body: [7])
        var prepared = plain.preparingHead()
        prepared.delivery = .throttled(bytesPerSecond: 10)
        #expect(plain.delivery == .immediate && prepared.head == plain.head && prepared != plain)
    }
}
