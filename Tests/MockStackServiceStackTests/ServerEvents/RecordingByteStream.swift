import Foundation
import MockStackCore
import Synchronization

@testable import MockStackServiceStack

/// A ``ByteStream`` that keeps what it is written and how it ended, and runs scheduled actions
/// only when the test says (``runScheduled()``), so expiry and delays are tested without waiting.
final class RecordingByteStream: ByteStream, Sendable {
    enum Ending: Equatable { case closed, cut }

    private struct State {
        var written: [UInt8] = []
        var ending: Ending?
        var scheduled: [(milliseconds: Int, action: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    func write(_ bytes: [UInt8]) { state.withLock { if $0.ending == nil { $0.written += bytes } } }
    func close() { state.withLock { if $0.ending == nil { $0.ending = .closed } } }
    func cut() { state.withLock { if $0.ending == nil { $0.ending = .cut } } }
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.scheduled.append((milliseconds, action)) }
    }

    var text: String { String(decoding: state.withLock { $0.written }, as: UTF8.self) }
    var ending: Ending? { state.withLock { $0.ending } }
    var scheduledDelays: [Int] { state.withLock { $0.scheduled.map(\.milliseconds) } }

    /// The events written so far, as `(id, payload)`; the text must be whole frames.
    var events: [(id: Int, data: String)] {
        text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { frame in
            let lines = frame.components(separatedBy: "\n")
            return (Int(lines[0].dropFirst(4)) ?? -1, String(lines[1].dropFirst(6)))
        }
    }

    /// Just the selectors (`*@cmd.onJoin`), in order.
    var selectors: [String] { events.map { String($0.data.prefix { $0 != " " }) } }

    /// Runs, in order, the actions scheduled so far (and forgets them).
    func runScheduled() {
        let actions = state.withLock { state in
            defer { state.scheduled = [] }
            return state.scheduled.map(\.action)
        }
        for action in actions { action() }
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let now = Mutex(0)

    func advance(by milliseconds: Int) { now.withLock { $0 += milliseconds } }

    var serverEventsClock: ServerEventsClock {
        ServerEventsClock(wallMilliseconds: { 1_764_000_000_000 }, monotonicMilliseconds: { self.now.withLock { $0 } })
    }
}
