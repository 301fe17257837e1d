import Foundation
@testable import MockStack
@testable import MockStackControl
import MockStackCore
import Testing

/// A journal is bounded by what its entries weigh as well as by their number: by number alone,
/// every session's journal could fill up with the largest bodies, and the server's memory would
/// grow with the number of sessions times the body limit.
struct JournalByteLimitTests {
    static func request(bodyBytes: Int) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/x", headers: ["Content-Type": "text/plain"], body: [UInt8](repeating: 0x61, count: bodyBytes))
    }

    static func record(_ journal: RequestJournal, bodyBytes: Int) {
        journal.record(app: "example", request: request(bodyBytes: bodyBytes), response: HTTPResponse(status: 204), duration: .zero)
    }

    @Test func theOldestGoFirstWhenTheBytesRunOut() {
        let journal = RequestJournal(capacity: 1000, bodyLimit: 16 * 1024, byteLimit: 40 * 1024)
        for _ in 0..<10 { Self.record(journal, bodyBytes: 10 * 1024) }
        // Each entry weighs a little over 10 KiB: three fit in 40 KiB, and the ten ids count on.
        let (entries, dropped) = journal.snapshot()
        #expect(entries.count == 3 && dropped == 7)
        #expect(entries.map(\.id) == [8, 9, 10])
        #expect(journal.bytes <= 40 * 1024)
        // The newest is kept even when it alone weighs more than the limit.
        Self.record(journal, bodyBytes: 16 * 1024)
        let small = RequestJournal(capacity: 10, bodyLimit: 16 * 1024, byteLimit: 1024)
        Self.record(small, bodyBytes: 16 * 1024)
        #expect(small.count == 1)
        journal.clear()
        #expect(journal.count == 0 && journal.bytes == 0)
    }

    @Test func sessionsKeepAMebibyteEachAndTheServerSixtyFour() {
        #expect(Session.journalByteLimit == 1024 * 1024)
        #expect(RequestJournal.serverByteLimit == 64 * 1024 * 1024)
        // The count limit still holds below the byte limit.
        let journal = RequestJournal(capacity: 5, bodyLimit: 16 * 1024)
        for _ in 0..<8 { Self.record(journal, bodyBytes: 10) }
        #expect(journal.snapshot().entries.map(\.id) == [4, 5, 6, 7, 8])
    }

    /// An answer up to about four times the body limit is held whole (shared with what was sent,
    /// not copied) and weighed whole; a longer one is copied cut. Both show the cut body.
    @Test func anAnswerNearTheLimitIsHeldWholeAndCutWhenRead() {
        let request = HTTPRequest(method: .get, target: "/x")
        for (length, weight) in [(10, 128 + 10), (100, 128 + 4)] {
            let journal = RequestJournal(capacity: 10, bodyLimit: 4)
            let text = String((0..<length).map { _ in Character("7") })
            let answer = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))
            journal.record(app: "example", request: request, response: answer, duration: .zero)
            #expect(journal.bytes == JournalEntry.fixedBytes + 2 + weight)
            let body = journal.snapshot().entries.first?.json["response"]?["body"]
            #expect(body == ["size": .number(JSONNumber(length)), "truncated": true, "text": "7777"])
        }
    }
}
