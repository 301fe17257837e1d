/// What one loop's sweep (``Worker/startIdleSweep()``) has seen of a connection: how long it
/// has idled, and how long its unsent output has gone undelivered. A plain value, so its rules
/// are tested without sockets.
///
/// The sweep looks at every connection ``looksPerTimeout`` times per timeout:
/// - **Idle**: a connection with nothing arriving, being answered or unsent, through more than
///   that many looks, has idled for at least the timeout.
/// - **Stalled**: a connection whose unsent output has not moved through that many looks has
///   made no progress for at least the timeout, and is dropped, as nginx's `send_timeout`
///   drops it. Progress is bytes the client acknowledged, not bytes the kernel took: a throttle
///   keeps feeding the kernel's buffers long after the client stopped reading. A slow reader
///   that keeps reading is served for as long as its answer takes.
struct ConnectionWatch {
    /// Looks per timeout: a connection is let go between the timeout and a quarter more.
    static let looksPerTimeout = 4

    /// What a look finds a connection doing.
    enum Activity: Equatable {
        /// Waiting for a request, with nothing unsent.
        case idle
        /// Reading a request, or preparing or waiting for an answer, with nothing unsent.
        case busy
        /// Holding output the client has not taken; `delivered` counts every byte of the
        /// connection's output the client has acknowledged so far.
        case sending(delivered: UInt64)
    }

    /// What the sweep does with the connection.
    enum Verdict: Equatable {
        case keep
        /// Idle through the timeout: closed.
        case idledOut
        /// Output undelivered through the timeout: reset (what the kernel holds is dropped too).
        case stalled
    }

    private var idleLooks = 0
    private var stalledLooks = 0
    /// The delivered count when the output was last seen to move.
    private var lastDelivered: UInt64?

    /// The connection read or answered something: its idle count starts over.
    mutating func sawActivity() { idleLooks = 0 }

    /// One look of the sweep.
    mutating func look(_ activity: Activity) -> Verdict {
        switch activity {
        case .idle:
            stopWatchingOutput()
            idleLooks += 1
            return idleLooks > Self.looksPerTimeout ? .idledOut : .keep
        case .busy:
            stopWatchingOutput()
            idleLooks = 0
            return .keep
        case .sending(let delivered):
            idleLooks = 0
            guard delivered == lastDelivered else {
                lastDelivered = delivered
                stalledLooks = 0
                return .keep
            }
            stalledLooks += 1
            return stalledLooks >= Self.looksPerTimeout ? .stalled : .keep
        }
    }

    private mutating func stopWatchingOutput() {
        stalledLooks = 0
        lastDelivered = nil
    }
}
