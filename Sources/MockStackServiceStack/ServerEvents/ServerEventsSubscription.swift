import MockStackCore
import Synchronization

/// One open `/event-stream` answer: who it belongs to, its channels, when it last showed it is
/// alive, and the stream its events go out on, numbered from 1 (`id:`). Thread-safe: events,
/// heartbeats and the close come from any loop.
///
/// Events wait as the payloads their recipients share, and are framed a batch at a time when
/// the stream asks for output: on its loop's pass over its streams, once the client's socket
/// has taken the last batch (docs/servicestack-server-events.md#back-pressure). A message to
/// many subscribers costs its sender a reference each; what a subscriber has not read costs a
/// reference an event, not a copy of its frame; one that falls further behind than
/// ``ServerEventsSettings/unsentOutputLimit`` is dropped.
final class ServerEventsSubscription: Sendable {
    let id: String
    let identity: SubscriberIdentity
    /// When it subscribed, in milliseconds since 1970 (`createdAt`).
    let createdAt: Int64
    /// The order subscriptions were made in, for listings oldest first.
    let sequence: Int
    private let stream: any ByteStream
    private let unsentLimit: Int
    private let state: Mutex<State>

    /// How much one batch frames, past the frame that crosses it: small enough that a pass
    /// over many subscribers stays short, large enough that a burst takes few passes.
    static let batchBytes = 16 * 1024

    private struct State {
        var channels: [String]
        /// The monotonic time of the subscription or its latest heartbeat.
        var lastPulse: Int
        /// The events it has been sent, the `id:` of the latest.
        var sent = 0
        /// The events written to the stream, the `id:` of the latest.
        var written = 0
        var ended = false
        /// Events held back by the app's event delay, oldest first.
        var held: [[UInt8]] = []
        /// Events to frame when the stream asks for output.
        var pending = PendingEvents()
        /// Whether the stream has been asked for a turn and has not yet given it.
        var asked = false
    }

    init(
        id: String, identity: SubscriberIdentity, channels: [String], createdAt: Int64, sequence: Int, now: Int,
        stream: any ByteStream, unsentLimit: Int
    ) {
        self.id = id
        self.identity = identity
        self.createdAt = createdAt
        self.sequence = sequence
        self.stream = stream
        self.unsentLimit = unsentLimit
        state = Mutex(State(channels: channels, lastPulse: now))
    }

    var channels: [String] { state.withLock { $0.channels } }

    var lastPulse: Int { state.withLock { $0.lastPulse } }

    var eventsSent: Int { state.withLock { $0.sent } }

    func pulse(at now: Int) { state.withLock { $0.lastPulse = max($0.lastPulse, now) } }

    func setChannels(_ channels: [String]) { state.withLock { $0.channels = channels } }

    /// Sends one event, numbered next. With `delay`, it waits that long first, behind any event
    /// still held. `cut` sends what is pending and half the event's frame, and ends the
    /// connection mid-event.
    /// - Returns: false when the subscription has ended, or is dropped now for being too far behind.
    @discardableResult
    func send(_ payload: [UInt8], delayMilliseconds delay: Int = 0, cut: Bool = false) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.sent += 1
            if cut {
                var output = frames(&state, upTo: .max)
                state.written += 1
                let frame = ServerEventFrame.bytes(id: state.written, payload: payload)
                output += frame.prefix(max(1, frame.count / 2))
                state.ended = true
                stream.write(output)
                stream.cut()
            } else if delay > 0 {
                state.held.append(payload)
                stream.schedule(afterMilliseconds: delay) { [self] in releaseOldest() }
            } else if state.held.isEmpty {
                return queue(payload, &state)
            } else {
                // Behind events still held (the delay was just lifted): they go first.
                state.held.append(payload)
                stream.schedule(afterMilliseconds: 0) { [self] in releaseOldest() }
            }
            return true
        }
    }

    /// The stream takes output: the next batch goes, and another turn is asked for if events
    /// are left.
    func outputWanted() {
        state.withLock { state in
            state.asked = false
            guard !state.ended, !state.pending.isEmpty else { return }
            stream.write(frames(&state, upTo: Self.batchBytes))
            askForOutput(&state)
        }
    }

    /// The oldest held event is queued, and with it every event queued behind it undelayed.
    private func releaseOldest() {
        state.withLock { state in
            guard !state.ended, !state.held.isEmpty else { return }
            queue(state.held.removeFirst(), &state)
        }
    }

    /// Queues an event for the stream's next turn; a subscriber whose client has left more than
    /// the limit waiting is dropped (reset), and leaves its channels as the connection ends.
    @discardableResult
    private func queue(_ payload: [UInt8], _ state: inout State) -> Bool {
        state.pending.append(payload)
        guard state.pending.bytes <= unsentLimit else {
            state.ended = true
            state.pending.removeAll()
            state.held = []
            stream.drop()
            return false
        }
        askForOutput(&state)
        return true
    }

    private func askForOutput(_ state: inout State) {
        guard !state.asked, !state.pending.isEmpty else { return }
        state.asked = true
        stream.requestOutput()
    }

    /// Frames pending events, numbered on, until `limit` bytes are framed or none is left.
    private func frames(_ state: inout State, upTo limit: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, state.pending.bytes + 20 * state.pending.count))
        while output.count < limit, let payload = state.pending.removeFirst() {
            state.written += 1
            ServerEventFrame.append(id: state.written, payload: payload, to: &output)
        }
        return output
    }

    /// Ends the answer (its last chunk) once every event sent before has gone out.
    func end() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            state.held = []
            if !state.pending.isEmpty { stream.write(frames(&state, upTo: .max)) }
            stream.close()
        }
    }

    /// Runs `action` on the stream's loop after `milliseconds`, unless it has ended by then.
    func schedule(afterMilliseconds milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        stream.schedule(afterMilliseconds: milliseconds, action)
    }
}
