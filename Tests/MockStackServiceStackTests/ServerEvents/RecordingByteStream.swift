import Foundation
import MockStackCore
import Synchronization

@testable import MockStackServiceStack

/// A ``ByteStream`` that keeps what it is written and how it ended, and runs scheduled actions
/// only when the test says (``runScheduled()``), so expiry and delays are tested without waiting.
///
/// Its client reads whenever the test looks (``text``): each output the handler asked for
/// (``requestOutput()``) is given (``ByteStreamHandler/outputWanted()``) until it asks no more,
/// or `takes` bytes have been written, past which the client reads nothing unless the test says
/// (``take()``): a client whose socket is full.
final class RecordingByteStream: ByteStream, Sendable {
    enum Ending: Equatable { case closed, cut, dropped }

    private struct State {
        var written: [UInt8] = []
        var ending: Ending?
        var scheduled: [(milliseconds: Int, action: @Sendable () -> Void)] = []
        var asked = false
    }

    private let state = Mutex(State())
    private let takes: Int
    /// How the handler is given output; set before the test reads.
    nonisolated(unsafe) private var give: (() -> Void)?

    init(takes: Int = .max) { self.takes = takes }

    /// Gives `handler` the output it asks for.
    func serve(_ handler: any ByteStreamHandler) { give = { handler.outputWanted() } }

    /// Gives `subscription` the output it asks for.
    func serve(_ subscription: ServerEventsSubscription) { give = { subscription.outputWanted() } }

    func write(_ bytes: [UInt8]) { state.withLock { if $0.ending == nil { $0.written += bytes } } }
    func close() { state.withLock { if $0.ending == nil { $0.ending = .closed } } }
    func cut() { state.withLock { if $0.ending == nil { $0.ending = .cut } } }
    func drop() { state.withLock { if $0.ending == nil { $0.ending = .dropped } } }
    func requestOutput() { state.withLock { if $0.ending == nil { $0.asked = true } } }
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.scheduled.append((milliseconds, action)) }
    }

    /// Gives the handler the output it asked for, once, however much has been written.
    /// - Returns: whether it had asked.
    @discardableResult
    func take() -> Bool {
        let asked = state.withLock { state in
            defer { state.asked = false }
            return state.asked
        }
        if asked { give?() }
        return asked
    }

    /// Everything written so far, once the client has read what it reads.
    private var written: [UInt8] {
        while state.withLock({ $0.written.count < takes }), take() {}
        return state.withLock { $0.written }
    }

    var text: String { String(decoding: written, as: UTF8.self) }
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
