import MockStackCore
import Synchronization

/// One open `/event-stream` answer: who it belongs to, its channels, when it last showed it is
/// alive, and the stream its events go out on, numbered from 1 (`id:`). Thread-safe: events,
/// heartbeats and the close come from any loop.
final class ServerEventsSubscription: Sendable {
    let id: String
    let identity: SubscriberIdentity
    /// When it subscribed, in milliseconds since 1970 (`createdAt`).
    let createdAt: Int64
    /// The order subscriptions were made in, for listings oldest first.
    let sequence: Int
    private let stream: any ByteStream
    private let state: Mutex<State>

    private struct State {
        var channels: [String]
        /// The monotonic time of the subscription or its latest heartbeat.
        var lastPulse: Int
        /// The `id:` of the latest event.
        var sent = 0
        var ended = false
        /// Frames held back by the app's event delay, oldest first.
        var held: [[UInt8]] = []
    }

    init(
        id: String, identity: SubscriberIdentity, channels: [String], createdAt: Int64, sequence: Int, now: Int,
        stream: any ByteStream
    ) {
        self.id = id
        self.identity = identity
        self.createdAt = createdAt
        self.sequence = sequence
        self.stream = stream
        state = Mutex(State(channels: channels, lastPulse: now))
    }

    var channels: [String] { state.withLock { $0.channels } }

    var lastPulse: Int { state.withLock { $0.lastPulse } }

    var eventsSent: Int { state.withLock { $0.sent } }

    func pulse(at now: Int) { state.withLock { $0.lastPulse = max($0.lastPulse, now) } }

    func setChannels(_ channels: [String]) { state.withLock { $0.channels = channels } }

    /// Sends one event, numbered next. With `delay`, the frame waits that long first, behind any
    /// frame still held. `cut` sends half the frame and ends the connection mid-event.
    /// - Returns: false when the subscription has ended.
    @discardableResult
    func send(_ payload: [UInt8], delayMilliseconds delay: Int = 0, cut: Bool = false) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.sent += 1
            let frame = ServerEventFrame.bytes(id: state.sent, payload: payload)
            if cut {
                state.ended = true
                stream.write(Array(frame.prefix(max(1, frame.count / 2))))
                stream.cut()
            } else if delay > 0 {
                state.held.append(frame)
                stream.schedule(afterMilliseconds: delay) { [self] in releaseOldest() }
            } else if state.held.isEmpty {
                stream.write(frame)
            } else {
                // Behind frames still held (the delay was just lifted): they go first.
                state.held.append(frame)
                stream.schedule(afterMilliseconds: 0) { [self] in releaseOldest() }
            }
            return true
        }
    }

    /// The oldest held frame goes out, and with it every frame queued behind it undelayed.
    private func releaseOldest() {
        state.withLock { state in
            guard !state.ended, !state.held.isEmpty else { return }
            stream.write(state.held.removeFirst())
        }
    }

    /// Ends the answer (its last chunk), once what was sent has gone out.
    func end() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            state.held = []
            stream.close()
        }
    }

    /// Runs `action` on the stream's loop after `milliseconds`, unless it has ended by then.
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        stream.schedule(afterMilliseconds: milliseconds, action)
    }
}
