import MockStackCore
@testable import MockStackUpstream
import Synchronization
import Testing
import TestSupport

/// The upstream client against the transport's own server on port 0 over loopback: what goes
/// up is the request as given, what comes back is the answer as it came.
@Suite(.timeLimit(.minutes(3)))
struct LibcurlClientTests {
    static func send(_ request: UpstreamRequest, library: String = LibcurlClient.defaultLibrary) async throws
        -> Result<UpstreamReply, UpstreamTransferError> {
        let client = try LibcurlClient.opened(library: library).get()
        return await withCheckedContinuation { done in client.send(request) { done.resume(returning: $0) } }
    }

    @Test func theRequestGoesUpAsGivenWithNoFieldsOfLibcurlsOwn() async throws {
        let upstream = try await ScriptedUpstream { _ in HTTPResponse(status: 204) }
        let reply = try await Self.send(UpstreamRequest(method: "PATCH", url: upstream.url + "/items/7?x=1",
                                                        headerFields: ["X-Trace": "abc", "X-Empty": ""], body: Array("{\"a\":1}".utf8)))
        try await upstream.stop()
        #expect(try reply.get().status == 204)
        let seen = try #require(upstream.requests.first)
        #expect(upstream.requests.count == 1)
        #expect(seen.methodName == "PATCH")
        #expect(seen.target == "/items/7?x=1")
        #expect(seen.body == Array("{\"a\":1}".utf8))
        // Only the fields given, the Host and Content-Length libcurl writes, and identity encoding:
        // no Expect, no Accept, no form Content-Type of libcurl's own.
        #expect(seen.headers.fields.map(\.name) == ["Host", "X-Trace", "X-Empty", "Accept-Encoding", "Content-Length"])
        #expect(seen.headers["X-Trace"] == "abc")
        #expect(seen.headers["X-Empty"] == "")
        #expect(seen.headers["Accept-Encoding"] == "identity")
        #expect(seen.headers["Content-Length"] == "7")
    }

    @Test func anEmptyPostSaysItsLengthAndHeadReadsNoBody() async throws {
        let upstream = try await ScriptedUpstream { request in
            .json(200, ["method": .string(request.methodName), "length": .string(request.headers["Content-Length"] ?? "none")])
        }
        let post = try await Self.send(UpstreamRequest(method: "POST", url: upstream.url + "/a")).get()
        let head = try await Self.send(UpstreamRequest(method: "HEAD", url: upstream.url + "/a")).get()
        let delete = try await Self.send(UpstreamRequest(method: "DELETE", url: upstream.url + "/a")).get()
        try await upstream.stop()
        #expect(String(decoding: post.body, as: UTF8.self) == #"{"method":"POST","length":"0"}"#)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        // The length of {"method":"HEAD","length":"none"}, which did not come.
        #expect(head.headerFields["Content-Length"] == "33")
        #expect(String(decoding: delete.body, as: UTF8.self) == #"{"method":"DELETE","length":"none"}"#)
        #expect(upstream.requests.map(\.methodName) == ["POST", "HEAD", "DELETE"])
    }

    @Test func theAnswerComesBackAsItCameRepeatedFieldsAndRedirectsIncluded() async throws {
        let upstream = try await ScriptedUpstream { _ in
            HTTPResponse(status: 302, headers: HTTPHeaders([
                .init(name: "Location", value: "/elsewhere"), .init(name: "Set-Cookie", value: "a=1"), .init(name: "Set-Cookie", value: "b=2"),
            ]), body: Array("moved".utf8))
        }
        let reply = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url + "/old")).get()
        try await upstream.stop()
        #expect(reply.status == 302)
        #expect(reply.headerFields["Location"] == "/elsewhere")
        #expect(reply.headerFields.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(reply.body == Array("moved".utf8))
        // Not followed: the upstream saw the one request.
        #expect(upstream.requests.map(\.target) == ["/old"])
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        let upstream = try await ScriptedUpstream { _ in HTTPResponse(status: 200, body: Array(repeating: UInt8(ascii: "x"), count: 100)) }
        let over = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url, maximumBodyBytes: 99))
        let at = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url, maximumBodyBytes: 100))
        try await upstream.stop()
        #expect(over == .failure(UpstreamTransferError(.tooLarge, "answered more than 99 bytes")))
        #expect(try at.get().body.count == 100)
    }

    @Test func answersArrivingTogetherHoldNoMoreThanTheBudget() {
        let budget = AnswerBudget(limit: 100)
        #expect(budget.take(60))
        #expect(budget.take(40))
        // One byte more is refused, and nothing of it taken.
        #expect(!budget.take(1))
        #expect(budget.held == 100)
        budget.give(60)
        #expect(budget.take(60))
        #expect(!budget.take(Int.max))
        budget.give(1000)
        #expect(budget.held == 0)
        #expect(LibcurlClient.answerBytesHeldAtOnce == 64 << 20)
        #expect(UpstreamRequest(method: "GET", url: "http://127.0.0.1/").maximumBodyBytes == 16 << 20)
    }

    /// Grown in counted steps rather than by the array's own policy: the bytes still arrive whole.
    @Test func aLargeAnswerArrivesWholeWithinTheBudget() async throws {
        let body = (0..<(10 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let upstream = try await ScriptedUpstream { _ in HTTPResponse(status: 200, body: body) }
        let reply = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url + "/large"))
        try await upstream.stop()
        #expect(try reply.get().body == body)
    }

    @Test func thePathGoesUpAsGivenDotSegmentsIncluded() async throws {
        let upstream = try await ScriptedUpstream { _ in HTTPResponse(status: 204) }
        _ = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url + "/base/../secret/./x"))
        try await upstream.stop()
        #expect(upstream.requests.map(\.target) == ["/base/../secret/./x"])
    }

    @Test func requestsRunTogether() async throws {
        let upstream = try await ScriptedUpstream { request in .json(200, .string(request.path)) }
        let paths = (0..<24).map { "/r\($0)" }
        let answers = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for path in paths {
                group.addTask {
                    let reply = try await Self.send(UpstreamRequest(method: "GET", url: upstream.url + path)).get()
                    return (path, String(decoding: reply.body, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
        }
        try await upstream.stop()
        #expect(answers.count == 24)
        for path in paths { #expect(answers[path] == "\"\(path)\"") }
    }

    @Test func aLibcurlThatCannotBeLoadedIsNamed() {
        guard case .failure(let missing) = LibcurlClient.opened(library: "libcurl-missing.so.4") else {
            Issue.record("a library that does not exist was opened")
            return
        }
        #if os(Linux)
        #expect(missing.message == "libcurl (libcurl-missing.so.4) could not be loaded: install libcurl4")
        #expect(missing.detail.hasPrefix("libcurl-missing.so.4: cannot open shared object file"))
        #endif
        #expect(missing.message.hasPrefix("libcurl (libcurl-missing.so.4) could not be loaded: install "))
    }
}
