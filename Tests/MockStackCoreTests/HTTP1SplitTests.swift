import MockStackCore
import Testing

/// The parser gives the same answer however a connection's bytes are split, and reads them
/// in linear time even a byte at a time.
@Suite(.timeLimit(.minutes(3))) struct HTTP1SplitTests {
    static let validStreams: [String] = [
        "GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /test/api/Hello HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"name\":\"café\"}",
        "POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=\"a\\\"b\"\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\n\r\n",
        "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n",
        "\r\n\nGET /lf HTTP/1.1\nHost: x\nConnection: close\n\n",
        "GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /old2 HTTP/1.0\r\n\r\n",
        "PUT /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody\r\n\r\nDELETE /f HTTP/1.1\r\nHost: x\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\nGET http://h:1/p?q HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    ]

    static let hostileStreams: [String] = [
        "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
        "GET / HTTP/2.0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\nExpect: nope\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 33_000) + "\r\n\r\n",
    ]

    @Test func theValidStreamsAreReadWhole() {
        let counts = Self.validStreams.map { HTTP1Feed.outcomes($0).count }
        #expect(counts == [1, 1, 1, 2, 2, 1, 2, 2, 2])
        for stream in Self.validStreams {
            for outcome in HTTP1Feed.outcomes(stream) {
                guard case .request = outcome else {
                    Issue.record("\(stream.debugDescription) gave \(outcome)")
                    continue
                }
            }
        }
        let chunked = HTTP1Feed.outcomes(Self.validStreams[2])
        guard case .request(_, let request) = chunked.first else { Issue.record("no request"); return }
        #expect(request.body == Array("helloabcdefghijklmnopqrstuvwxyz".utf8))
    }

    @Test func theHostileStreamsFailWhole() {
        for stream in Self.hostileStreams {
            guard case .failure = HTTP1Feed.outcomes(stream).last else {
                Issue.record("\(stream.prefix(80).debugDescription) did not fail")
                continue
            }
        }
    }

    /// Random splits, from single bytes to large pieces, give what feeding the stream whole gives.
    @Test(arguments: Array(validStreams.indices) + Array(hostileStreams.indices).map { $0 + 100 })
    func randomSplitsGiveTheSameOutcomes(index: Int) {
        let stream = Array((index < 100 ? Self.validStreams[index] : Self.hostileStreams[index - 100]).utf8)
        let whole = HTTP1Feed.outcomes(stream, pieces: [])
        var generator = SeededRandom(seed: 0x4854_5450_3100 + UInt64(index))
        for round in 0..<200 {
            let largest = [1, 2, 3, 7, stream.count / 4 + 1, stream.count][round % 6]
            var pieces: [Int] = []
            var total = 0
            while total < stream.count {
                let size = Int.random(in: 1...max(1, largest), using: &generator)
                pieces.append(size)
                total += size
            }
            let split = HTTP1Feed.outcomes(stream, pieces: pieces)
            if split != whole {
                Issue.record("pieces \(pieces.prefix(40)) gave \(split), whole gave \(whole)")
                return
            }
        }
    }

    @Test func everySingleSplitPointGivesTheSameOutcomes() {
        for text in Self.validStreams + Self.hostileStreams.dropLast() {
            let stream = Array(text.utf8)
            let whole = HTTP1Feed.outcomes(stream, pieces: [])
            for point in 1..<stream.count where HTTP1Feed.outcomes(stream, pieces: [point]) != whole {
                Issue.record("split at \(point) of \(text.prefix(60).debugDescription) differs")
                break
            }
        }
    }

    /// A 1 MiB header value a byte at a time: every call reads its byte and no more, and the
    /// whole head completes (a parser looking at the carried bytes again on each call would
    /// look at half a trillion of them and run past the time limit).
    @Test func aMebibyteHeadArrivingByteByByte() {
        let value = String(repeating: "v", count: 1 << 20)
        let bytes = Array("GET / HTTP/1.1\r\nHost: x\r\nX-Huge: \(value)\r\n\r\n".utf8)
        var parser = HTTP1RequestParser(limits: HTTP1Limits(maxHeadBytes: 2 << 20))
        var calls = 0
        var completed: HTTPRequest?
        let all = bytes[...]
        let span = all.span
        for index in span.indices {
            calls += 1
            switch parser.parse(span.extracting(index..<(index + 1))) {
            case .needMore(consumed: 1): continue
            case .complete(_, let request, consumed: 1): completed = request
            case let other: Issue.record("byte \(index): \(other)"); return
            }
        }
        #expect(calls == bytes.count)
        #expect(completed?.headers["X-Huge"]?.utf8.count == 1 << 20)
    }

    /// 256 KiB of one-byte chunks, a byte at a time.
    @Test func oneByteChunksArrivingByteByByte() {
        let count = 1 << 18
        var bytes = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        bytes.reserveCapacity(bytes.count + count * 6 + 5)
        for index in 0..<count { bytes += [UInt8(ascii: "1"), 0x0D, 0x0A, UInt8(ascii: "a") + UInt8(index % 26), 0x0D, 0x0A] }
        bytes += Array("0\r\n\r\n".utf8)
        var parser = HTTP1RequestParser()
        var body: [UInt8]?
        let all = bytes[...]
        let span = all.span
        for index in span.indices {
            switch parser.parse(span.extracting(index..<(index + 1))) {
            case .needMore(consumed: 1): continue
            case .complete(_, let request, consumed: 1): body = request.body
            case let other: Issue.record("byte \(index): \(other)"); return
            }
        }
        #expect(body?.count == count)
        #expect(body?.prefix(3) == [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c")])
    }

    /// A body of exactly the limit in one-byte chunks (six times that on the wire), arriving
    /// in 24 KiB reads of 4,096 chunks each. A 2 MiB limit: the default 16 MiB's 96 MiB took a
    /// test thread for a minute in a debug build under load, starving the suite's other tests.
    @Test func aLimitSizedBodyOfOneByteChunks() {
        let limits = HTTP1Limits(maxBodyBytes: 2 * 1024 * 1024)
        let limit = limits.maxBodyBytes
        let read = Array([[UInt8]](repeating: Array("1\r\nz\r\n".utf8), count: 4096).joined())
        var parser = HTTP1RequestParser(limits: limits)
        func feed(_ bytes: [UInt8]) -> HTTP1ParseStep { parser.parse(bytes) }
        let head = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        #expect(feed(head) == .needMore(consumed: head.count))
        for index in 0..<(limit / 4096) {
            let step = feed(read)
            guard step == .needMore(consumed: read.count) else {
                Issue.record("read \(index): \(step)")
                return
            }
        }
        let step = feed(Array("0\r\n\r\n".utf8))
        #expect(step.consumed == 5 && step.request?.body.count == limit)
    }
}
