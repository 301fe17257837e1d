/// Where one connection stands, as one value: the phase it is in (reading a request, answering
/// one, ending, upgraded, closed) and the facts that only hold within a phase, so that no
/// impossible combination (input held on a closed connection, a `100 Continue` remembered while
/// answering) can be written down. ``HTTPConnection`` keeps the C handles and buffers and tells
/// this value what happened; each event returns what the connection must do, and the connection
/// does it. A plain value: every transition is tested without sockets
/// (docs/transport.md#the-connections-states).
struct ConnectionState {
    /// The connection's phase, with what matters in it.
    enum Phase: Equatable {
        /// Reading a request, or waiting for one.
        case reading(Reading)
        /// A request was handed to the responder; its answer is not all handed to the socket.
        case answering(Answering)
        /// The last answer is going out, reading is off; the connection closes once it has.
        case closing(lingers: Bool)
        /// Switched protocols, or sending a streamed body: a byte stream its handler serves.
        case upgraded
        case closed
    }

    /// What a connection reading requests remembers.
    struct Reading: Equatable {
        /// Reading is paused: unparsed input passed ``ConnectionState/pendingInputLimit``.
        var inputHeld = false
        /// Parsing waits for earlier answers to drain below ``ConnectionState/outputHighWater``.
        var waitingForOutput = false
        /// `100 Continue` went out for the request now arriving.
        var sentContinue = false
        /// The client closed its sending side: what it sent before is still answered.
        var peerFinished = false
    }

    /// What a connection answering a request remembers.
    struct Answering: Equatable {
        /// Reading is paused: unparsed input passed ``ConnectionState/pendingInputLimit``.
        var inputHeld = false
        /// The answer ends the connection: the client asked (or spoke HTTP/1.0 without
        /// keep-alive), the answer says so, or it is a refusal or a broken answer.
        var closesAfter = false
        /// A refusal while the client may still be sending: its socket is read to its end
        /// after the answer (``LingeringClose``), so that the client reads the answer.
        var lingers = false
        /// A `hang` fault holds the connection: a graceful stop closes it at once.
        var held = false
    }

    /// Parsing waits while this much of earlier answers is still unsent: a client pipelining
    /// requests without reading their answers cannot make the output grow without end.
    static let outputHighWater = 1 << 20
    /// Input kept unparsed while an answer is pending or earlier answers are unsent, at most;
    /// reading pauses past it.
    static let pendingInputLimit = 1 << 20

    private(set) var phase = Phase.reading(Reading())
    /// The idle and send deadlines: what the loop's sweep has seen (``Worker/startIdleSweep()``).
    var watch = ConnectionWatch()
    /// The read callback is parsing, on the stack below: an answer finished inside it must not
    /// parse on by itself (the loop there does). About the call stack, not the phase.
    private(set) var parsing = false

    // MARK: - Questions

    var isReading: Bool { if case .reading = phase { true } else { false } }
    var isAnswering: Bool { if case .answering = phase { true } else { false } }
    var isUpgraded: Bool { phase == .upgraded }
    var isClosed: Bool { phase == .closed }
    /// Whether a `hang` fault holds the connection.
    var isHeld: Bool { if case .answering(let answering) = phase { answering.held } else { false } }
    /// Whether the answer being sent ends the connection (its `Connection: close` line).
    var closesAfterAnswer: Bool {
        switch phase {
        case .answering(let answering): answering.closesAfter
        case .closing: true
        case .reading, .upgraded, .closed: false
        }
    }

    // MARK: - Input

    /// What to do with input that has arrived (or may be parsed again).
    enum InputStep: Equatable {
        /// Parse it, first resuming reading when it was held.
        case parse(resumeReading: Bool)
        /// The parse loop below on the stack takes it.
        case alreadyParsing
        /// It cannot be parsed now (an answer is pending, or the connection ends): it waits in
        /// the input, up to ``pendingInputLimit`` (``holdInput(unparsed:)``).
        case hold
        /// The upgraded stream's handler takes it.
        case toStream
    }

    /// Bytes arrived, an answer finished or the output drained: whether to parse.
    mutating func inputReady() -> InputStep {
        switch phase {
        case .upgraded: return .toStream
        case .answering, .closing, .closed: return .hold
        case .reading(var reading):
            guard !parsing else { return .alreadyParsing }
            let resume = reading.inputHeld
            reading.inputHeld = false
            phase = .reading(reading)
            return .parse(resumeReading: resume)
        }
    }

    /// The parse loop starts (``inputReady()`` said to parse).
    mutating func parsingStarted() { parsing = true }
    /// The parse loop has returned.
    mutating func parsingEnded() { parsing = false }

    /// Before each request is parsed: whether the output is too far behind. It is when earlier
    /// answers hold more than ``outputHighWater`` unsent, or a throttled answer is still going
    /// out (its limit and deadline are its own); parsing then waits until the output drains.
    mutating func outputHoldsParsing(unsent: Int, throttled: Bool) -> Bool {
        guard unsent > Self.outputHighWater || (throttled && unsent > 0), case .reading(var reading) = phase else {
            return false
        }
        reading.waitingForOutput = true
        phase = .reading(reading)
        return true
    }

    /// Input that cannot be parsed now, `unparsed` bytes of it: whether reading must pause.
    /// Past ``pendingInputLimit`` it does, so a client that pipelines without reading holds the
    /// server's memory to the bound; it resumes when parsing does (``inputReady()``).
    mutating func holdInput(unparsed: Int) -> Bool {
        guard unparsed > Self.pendingInputLimit else { return false }
        switch phase {
        case .reading(var reading) where !reading.inputHeld:
            reading.inputHeld = true
            phase = .reading(reading)
        case .answering(var answering) where !answering.inputHeld:
            answering.inputHeld = true
            phase = .answering(answering)
        case .reading, .answering, .closing, .upgraded, .closed:
            // Already paused (ending connections read no more), or not the parser's input.
            return false
        }
        return true
    }

    /// A request has begun arriving and its head asks for `100 Continue` (`expectsContinue`):
    /// whether to send it now (once per request).
    mutating func continueNeeded(expectsContinue: Bool) -> Bool {
        guard expectsContinue, case .reading(var reading) = phase, !reading.sentContinue else { return false }
        reading.sentContinue = true
        phase = .reading(reading)
        return true
    }

    // MARK: - Requests and answers

    /// A whole request was parsed: it is answered now, and the connection closes after the
    /// answer unless the request keeps it alive.
    mutating func requestArrived(keepAlive: Bool) {
        guard case .reading(let reading) = phase else { return }
        phase = .answering(Answering(inputHeld: reading.inputHeld, closesAfter: !keepAlive))
    }

    /// The parser refused a request: its error answers, and the connection closes after it,
    /// lingering when the client may still be sending.
    mutating func requestRefused(lingers: Bool) {
        guard case .reading(let reading) = phase else { return }
        phase = .answering(Answering(inputHeld: reading.inputHeld, closesAfter: true, lingers: lingers))
    }

    /// The answer being sent ends the connection (a `Connection: close`, a broken answer).
    mutating func closeAfterAnswer() {
        guard case .answering(var answering) = phase else { return }
        answering.closesAfter = true
        phase = .answering(answering)
    }

    /// A `hang` fault holds the connection until the client leaves or the hold ends.
    mutating func hold() {
        guard case .answering(var answering) = phase else { return }
        answering.held = true
        phase = .answering(answering)
    }

    /// What follows an answer handed over whole.
    enum AfterAnswer: Equatable {
        /// Nothing: no answer was being sent (the connection moved on).
        case nothing
        /// The connection ends once the output is out (``endAfterOutput()`` was applied).
        case endAfterOutput
        /// The next request may be read; `parseNow` when no parse loop is on the stack.
        case readNext(parseNow: Bool)
    }

    /// The answer to the request being answered has been handed over whole.
    mutating func answerFinished() -> AfterAnswer {
        guard case .answering(let answering) = phase else { return .nothing }
        if answering.closesAfter {
            phase = .closing(lingers: answering.lingers)
            return .endAfterOutput
        }
        // The parser is ready for the next request by itself.
        phase = .reading(Reading(inputHeld: answering.inputHeld))
        return .readNext(parseNow: !parsing)
    }

    /// The connection ends once its output is out: reading stops (the connection pauses it)
    /// and no request is parsed any more.
    mutating func endAfterOutput() {
        switch phase {
        case .answering(let answering): phase = .closing(lingers: answering.lingers)
        case .reading, .upgraded: phase = .closing(lingers: false)
        case .closing, .closed: break
        }
    }

    /// The parse loop used up the input: whether a client that closed its sending side has
    /// now had every whole request it sent answered, and the connection should end.
    func inputUsedUp(inputEmpty: Bool) -> Bool {
        guard inputEmpty, case .reading(let reading) = phase else { return false }
        return reading.peerFinished
    }

    /// The connection becomes a byte stream (a `101` or a streamed body's head went out): no
    /// more requests.
    /// - Returns: whether reading must resume (it was held).
    mutating func switchedToStream() -> Bool {
        guard case .answering(let answering) = phase else { return false }
        phase = .upgraded
        return answering.inputHeld
    }

    // MARK: - Output and the peer

    /// What to do once the output has been written out.
    enum Drained: Equatable {
        case nothing
        /// The last answer is out: close.
        case close
        /// Parsing waited for the output: parse on.
        case parse
        /// An upgraded stream's output has all gone to the socket: a handler waiting may write.
        case streamDrained
    }

    /// The bufferevent wrote out the whole output.
    mutating func outputDrained() -> Drained {
        switch phase {
        case .closing:
            return .close
        case .reading(var reading) where reading.waitingForOutput:
            reading.waitingForOutput = false
            phase = .reading(reading)
            return .parse
        case .upgraded:
            return .streamDrained
        case .reading, .answering, .closed:
            return .nothing
        }
    }

    /// What to do when the client closed its end, or the connection broke.
    enum PeerGone: Equatable {
        case nothing
        /// Close now.
        case close
        /// The answer still goes out, then the connection ends; reading stops.
        case finishAnswerThenClose
        /// Every request it sent is answered: end once the output is out.
        case endAfterOutput
    }

    /// The client closed its sending side (`reset` false) or the connection broke (`reset`).
    /// - Parameters:
    ///   - waiting: a delay, a hold or a deferred answer is pending: the client has gone
    ///     before its answer, and closing runs the wait's `clientLeft`.
    ///   - outputEmpty: nothing is unsent.
    ///   - inputEmpty: no unparsed input is left.
    mutating func peerClosed(reset: Bool, waiting: Bool, outputEmpty: Bool, inputEmpty: Bool) -> PeerGone {
        switch phase {
        case .answering where waiting:
            return .close
        case .answering(var answering):
            // An answer still going out to a client that only closed its sending side is sent,
            // then the connection ends. After an error nothing more can be sent.
            if reset { return .close }
            answering.closesAfter = true
            phase = .answering(answering)
            return .finishAnswerThenClose
        case .closing:
            return reset || outputEmpty ? .close : .finishAnswerThenClose
        case .reading(var reading):
            // A client that only closed its sending side still gets the answers to what it sent.
            if reset { return .close }
            reading.peerFinished = true
            phase = .reading(reading)
            guard inputEmpty else { return .nothing }
            phase = .closing(lingers: false)
            return .endAfterOutput
        case .upgraded:
            return .close
        case .closed:
            return .nothing
        }
    }

    /// The connection closes now.
    /// - Returns: nil when it was closed already; else whether its socket lingers (is read to
    ///   its end after the answer, ``LingeringClose``) rather than closing at once.
    mutating func close() -> Bool? {
        let lingers: Bool
        switch phase {
        case .closed: return nil
        case .answering(let answering): lingers = answering.lingers
        case .closing(let closingLingers): lingers = closingLingers
        case .reading, .upgraded: lingers = false
        }
        phase = .closed
        return lingers
    }
}
