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

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add("x-one", "2")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-ONE") == ["1", "2"])
        headers.set("X-One", "3")
        #expect(headers.values(for: "x-one") == ["3"])
    }
}
