import Foundation
import MockStackCore
import Testing

@testable import MockStackServiceStack

/// A subscription frames its events a batch at a time, when its stream asks for output
/// (docs/servicestack-server-events.md#back-pressure): its sender only queues references, a
/// client that falls behind holds references, not frames, and one too far behind is dropped.
@Suite struct ServerEventsBackPressureTests {
    let hub: ServerEventsHub

    init() {
        var settings = ServerEventsSettings()
        settings.unsentOutputLimit = 64 * 1024
        hub = ServerEventsHub(
            settings: settings, budget: SubscriptionBudget(limit: 10), clock: ManualClock().serverEventsClock)
    }

    /// A subscription whose client reads all there is, or, unless `reads`, its first batch only.
    func subscribe(
        _ channel: String, reads: Bool
    ) -> (
        subscription: ServerEventsSubscription, stream: RecordingByteStream
    ) {
        let stream = RecordingByteStream(takes: reads ? .max : 1)
        let subscription = hub.subscribe(channels: [channel], baseURL: "http://h", stream: stream) {
            .anonymous(number: $0)
        }
        stream.serve(subscription)
        return (subscription, stream)
    }

    /// A JSON string body of about `bytes`.
    func body(_ bytes: Int, _ tag: Int) -> [UInt8] { Array("\"\(tag) \(String(repeating: "x", count: bytes))\"".utf8) }

    @Test func aClientThatReadsGetsEveryEventInOrderAcrossBatches() {
        let reader = subscribe("A", reads: true)
        for tag in 0..<100 { hub.notify(.channel("A"), selector: "cmd.chat", body: body(500, tag)) }
        let events = reader.stream.events
        // onConnect, onJoin, then the 100 messages: far more than one batch.
        #expect(events.count == 102)
        #expect(events.map(\.id) == Array(1...102))
        let heads = events.dropFirst(2).map { String($0.data.prefix(14)) }
        #expect(heads == (0..<100).map { String("A@cmd.chat \"\($0) x".prefix(14)) })
        #expect(reader.subscription.eventsSent == 102)
    }

    @Test func aSenderOnlyQueuesAndEachTurnFramesOneBatch() {
        let slow = subscribe("A", reads: false)
        for tag in 0..<40 { hub.notify(.channel("A"), selector: "cmd.chat", body: body(1000, tag)) }
        // The stream asks once; its client takes the first batch, then nothing.
        let first = slow.stream.text.utf8.count
        #expect(first >= ServerEventsSubscription.batchBytes)
        #expect(first < ServerEventsSubscription.batchBytes + 1100)
        let written = slow.stream.events.count
        #expect(written > 10 && written < 42)
        // Its client takes no more: nothing more is framed until it does, then one batch.
        hub.notify(.channel("A"), selector: "cmd.chat", body: body(1000, 40))
        #expect(slow.stream.events.count == written)
        #expect(slow.stream.take())
        let second = slow.stream.text.utf8.count - first
        #expect(second >= ServerEventsSubscription.batchBytes)
        #expect(second < ServerEventsSubscription.batchBytes + 1100)
        #expect(slow.stream.events.map(\.id) == Array(1...slow.stream.events.count))
        #expect(slow.stream.events.count < 43)
        #expect(slow.stream.ending == nil)
    }

    @Test func untilAskedNothingIsFramed() {
        let stream = RecordingByteStream(takes: 0)
        let subscription = hub.subscribe(channels: ["A"], baseURL: "http://h", stream: stream) {
            .anonymous(number: $0)
        }
        stream.serve(subscription)
        hub.notify(.channel("A"), selector: "cmd.chat", body: body(10, 0))
        #expect(stream.text.isEmpty)
        #expect(subscription.eventsSent == 3)
        #expect(stream.take())
        #expect(stream.selectors == ["cmd.onConnect", "A@cmd.onJoin", "A@cmd.chat"])
        // All written: it asks no more.
        #expect(!stream.take())
    }

    @Test func aClientTooFarBehindIsDroppedAndHearsNoMore() {
        let slow = subscribe("A", reads: false)
        let reader = subscribe("A", reads: true)
        _ = slow.stream.text  // its socket takes the first batch
        var reached: [Int] = []
        // A batch out, then 64 KiB of frames at most may wait: about the 80th message of 1 KB
        // passes it.
        for tag in 0..<100 {
            reached.append(hub.notify(.channel("A"), selector: "cmd.chat", body: body(1000, tag)) ?? -1)
            _ = reader.stream.text  // it reads as the messages come
        }
        #expect(slow.stream.ending == .dropped)
        #expect(reached.prefix(3) == [2, 2, 2])
        #expect(reached.suffix(3) == [1, 1, 1])
        #expect(reached.firstIndex(of: 1).map { $0 > 55 && $0 < 90 } == true)
        // The one that reads got them all.
        #expect(reader.stream.events.count == 1 + 1 + 100)
        // Nothing more is framed for the dropped one, even if it is given output now.
        let before = slow.stream.text
        slow.subscription.outputWanted()
        #expect(slow.stream.text == before)
    }

    @Test func endingWritesWhatWaitsBeforeTheLastChunk() {
        let slow = subscribe("A", reads: false)
        for tag in 0..<30 { hub.notify(.channel("A"), selector: "cmd.chat", body: body(1000, tag)) }
        #expect(slow.stream.events.count < 32)
        _ = hub.unregister(slow.subscription.id)
        #expect(slow.stream.ending == .closed)
        #expect(slow.stream.selectors == ["cmd.onConnect", "A@cmd.onJoin"] + Array(repeating: "A@cmd.chat", count: 30))
    }

    @Test func aCutComesAfterTheEventsWaitingBeforeIt() {
        let slow = subscribe("A", reads: false)
        for tag in 0..<30 { hub.notify(.channel("A"), selector: "cmd.chat", body: body(1000, tag)) }
        #expect(slow.stream.events.count < 32)
        hub.notify(.subscription(slow.subscription.id), selector: "cmd.two", body: [], cut: true)
        #expect(slow.stream.ending == .cut)
        let frame = ServerEventFrame.bytes(id: 33, payload: ServerEventFrame.payload(selector: "cmd.two", body: []))
        let half = String(decoding: frame.prefix(frame.count / 2), as: UTF8.self)
        #expect(slow.stream.text.hasSuffix("x\"\n\n" + half))
        #expect(slow.stream.text.dropLast(half.utf8.count).components(separatedBy: "\n\n").count == 33)
    }
}
