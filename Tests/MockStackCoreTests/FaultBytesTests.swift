@testable import MockStackCore
import Testing

/// The broken replies faults send, as plain bytes, and the generator behind them.
struct FaultBytesTests {
    let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "999"],
                                body: Array(#"{"abc":"defghijk"}"#.utf8))

    @Test func truncateDeclaresTheWholeLengthAndSendsHalf() {
        let text = String(decoding: FaultBytes.bytes(for: .truncate, of: response), as: UTF8.self)
        // The response's own Content-Length gives way to the declared one.
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n\r\n{\"abc\":\"d")
    }

    @Test(arguments: [Fault.truncate, .malformedChunk])
    func anAnswerWithoutABodyIsCutInItsHead(_ fault: Fault) {
        let noContent = HTTPResponse(status: 204, headers: ["X-Request-Id": "abc"])
        let text = String(decoding: FaultBytes.bytes(for: fault, of: noContent), as: UTF8.self)
        // (Bytes, not characters: "\r\n" is one Character.)
        func half(_ head: String) -> String { String(decoding: Array(head.utf8).prefix(head.utf8.count / 2), as: UTF8.self) }
        #expect(text == half("HTTP/1.1 204 No Content\r\nX-Request-Id: abc\r\n"))
        let emptyOK = String(decoding: FaultBytes.bytes(for: fault, of: HTTPResponse(status: 200)), as: UTF8.self)
        #expect(emptyOK == half("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"))
    }

    @Test func malformedChunkBreaksAfterAGoodChunk() {
        let text = String(decoding: FaultBytes.bytes(for: .malformedChunk, of: response), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "9\r\n{\"abc\":\"d\r\nzz\r\nnot a chunk\r\n")
    }

    @Test func garbageIsRepeatableAndNotHTTP() {
        let first = FaultBytes.bytes(for: .randomThenClose, of: response)
        #expect(first.count == 512 && first == FaultBytes.bytes(for: .randomThenClose, of: HTTPResponse(status: 500)))
        #expect(first.first != UInt8(ascii: "H"))
        #expect(Set(first).count > 200)
    }

    @Test func faultsThatSendNothing() {
        for fault in [Fault.reset, .empty, .hang] { #expect(FaultBytes.bytes(for: fault, of: response).isEmpty) }
    }

    @Test func theGeneratorRepeatsForASeedAndDiffersAcrossSeeds() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in c.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SeededRandom(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
