import MockStackCore
import Testing

/// The parser between requests: after a request, after a failure, and on reset.
@Suite struct HTTP1ParserStateTests {
    static func feed(_ parser: inout HTTP1RequestParser, _ text: String) -> HTTP1ParseStep {
        Array(text.utf8).withUnsafeBytes { parser.parse($0) }
    }

    @Test func aFailureStaysUntilReset() {
        var parser = HTTP1RequestParser()
        let failure = Self.feed(&parser, "GET / HTTP/1.1\r\nHost : x\r\n\r\n")
        let error = HTTP1ParseError.badRequest("the header name 'Host ' has a character a token cannot (a space before the colon?)")
        #expect(failure.error == error)
        #expect(parser.pendingHead == nil)
        #expect(Self.feed(&parser, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") == .failed(error, consumed: 0))
        parser.reset()
        #expect(!parser.isMidRequest)
        #expect(Self.feed(&parser, "GET /again HTTP/1.1\r\nHost: x\r\n\r\n").request?.target == "/again")
    }

    @Test func aCompleteRequestLeavesTheParserReadyForTheNext() {
        var parser = HTTP1RequestParser()
        let first = Self.feed(&parser, "POST /1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nA")
        #expect(first.request?.body == [UInt8(ascii: "A")])
        #expect(!parser.isMidRequest && parser.pendingHead == nil)
        // Without reset(), and with it: the same.
        #expect(Self.feed(&parser, "GET /2 HTTP/1.1\r\nHost: x\r\n\r\n").request?.target == "/2")
        parser.reset()
        #expect(Self.feed(&parser, "GET /3 HTTP/1.1\r\nHost: x\r\n\r\n").request?.target == "/3")
    }

    @Test func resetForgetsAHalfReadRequest() {
        var parser = HTTP1RequestParser()
        let half = "POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"
        #expect(Self.feed(&parser, half) == .needMore(consumed: half.utf8.count))
        #expect(parser.pendingHead?.framing == .length(10) && parser.method == .post && parser.isMidRequest)
        parser.reset()
        #expect(parser.pendingHead == nil && !parser.isMidRequest)
        #expect(Self.feed(&parser, "GET /whole HTTP/1.1\r\nHost: x\r\n\r\n").request?.body == [])
    }

    @Test func givenNothingItConsumesNothing() {
        var parser = HTTP1RequestParser()
        #expect(parser.parse(UnsafeRawBufferPointer(start: nil, count: 0)) == .needMore(consumed: 0))
    }

    /// The parser shares the previous request's strings where the bytes spell them again: each
    /// request must still read as sent, whatever it has in common with the one before.
    @Test func eachRequestOnAConnectionKeepsItsOwnTargetAndFields() {
        var parser = HTTP1RequestParser()
        let requests: [(text: String, target: String, fields: [HTTPHeaders.Field])] = [
            ("GET /same/long/target HTTP/1.1\r\nHost: x\r\nX-Custom-Name: one value\r\n\r\n", "/same/long/target",
             [.init(name: "Host", value: "x"), .init(name: "X-Custom-Name", value: "one value")]),
            ("GET /same/long/target HTTP/1.1\r\nHost: x\r\nX-Custom-Name: one valuf\r\nX-More: 1\r\n\r\n", "/same/long/target",
             [.init(name: "Host", value: "x"), .init(name: "X-Custom-Name", value: "one valuf"), .init(name: "X-More", value: "1")]),
            ("GET /same/long/targe HTTP/1.1\r\nHost: x\r\nX-Custom-Namf: one valuf\r\n\r\n", "/same/long/targe",
             [.init(name: "Host", value: "x"), .init(name: "X-Custom-Namf", value: "one valuf")]),
            ("GET /same/long/targe HTTP/1.1\r\nX-Custom-Namf: caf\u{E9}\r\nHost: x\r\n\r\n", "/same/long/targe",
             [.init(name: "X-Custom-Namf", value: "caf\u{E9}"), .init(name: "Host", value: "x")]),
        ]
        for (text, target, fields) in requests {
            let step = Self.feed(&parser, text)
            #expect(step.request?.target == target && step.request?.path == target)
            #expect(step.request?.headers.fields == fields)
        }
    }

    @Test func readsOnlyTheFirstOfPipelinedRequests() {
        var parser = HTTP1RequestParser()
        let first = "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"
        let step = Self.feed(&parser, first + "GET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(step.request?.target == "/1" && step.consumed == first.utf8.count)
    }
}
