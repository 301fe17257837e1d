/// Reads a client's frames incrementally (RFC 6455 §5), from pieces split anywhere, and joins
/// fragments into messages.
///
/// What it refuses, with the close code the server then sends: an unmasked frame, reserved bits
/// or opcodes, a control frame over 125 bytes or fragmented, a continuation with no message to
/// continue or a new message before the last ended, a 64-bit length with its top bit set, a
/// close frame whose payload is one byte or whose code may not be sent (1002); a text message
/// or close reason that is not UTF-8, found at its first bad byte (1007); a frame or message
/// longer than the limit, found from the frame's header before its payload is read (1009).
/// After a failure or a close frame it reads nothing more.
public struct WebSocketFrameReader: Sendable {
    /// What the bytes read made.
    public enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close frame: its code (nil when it carried none) and reason.
        case close(code: WebSocketCloseCode?, reason: String)
        /// The connection must fail with this code; nothing more is read.
        case failed(WebSocketFailure)
    }

    public let maxMessageBytes: Int
    public let requiresMask: Bool

    /// The current frame's head, while its bytes arrive (at most 14).
    private var head: [UInt8] = []
    private var frame: Frame?
    /// The data message being assembled, across its frames.
    private var message: Message?
    private var control: [UInt8] = []
    private var finished = false

    private struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        var mask: (UInt8, UInt8, UInt8, UInt8)
        var remaining: Int
        var maskOffset = 0
    }

    private struct Message {
        var isText: Bool
        var bytes: [UInt8] = []
        var validation = UTF8Validation()
    }

    /// - Parameters:
    ///   - maxMessageBytes: the longest message (all its fragments together) and so the longest frame.
    ///   - requiresMask: whether frames must be masked (true for a server reading a client).
    public init(maxMessageBytes: Int, requiresMask: Bool = true) {
        self.maxMessageBytes = max(0, maxMessageBytes)
        self.requiresMask = requiresMask
        head.reserveCapacity(14)
    }

    /// Whether it has stopped reading (after a failure or a close frame).
    public var isFinished: Bool { finished }

    /// Reads the next piece of the stream. - Returns: what it completed, in order.
    public mutating func read(_ bytes: [UInt8]) -> [Event] {
        var events: [Event] = []
        var index = 0
        while index < bytes.count, !finished {
            if frame == nil {
                head.append(bytes[index])
                index += 1
                switch parseHead() {
                case nil:
                    continue
                case .failure(let failure):
                    return events + [fail(failure)]
                case .success(let next):
                    head.removeAll(keepingCapacity: true)
                    frame = next
                }
            }
            guard var current = frame else { continue }
            let take = min(current.remaining, bytes.count - index)
            if take > 0 {
                if let failure = consume(bytes[index..<(index + take)], of: &current) {
                    return events + [fail(failure)]
                }
                index += take
                current.remaining -= take
            }
            frame = current
            if current.remaining == 0 {
                frame = nil
                if let event = frameEnded(current) {
                    events.append(event)
                    if case .failed = event { finished = true }
                    if case .close = event { finished = true }
                }
            }
        }
        return events
    }

    private mutating func fail(_ failure: WebSocketFailure) -> Event {
        finished = true
        message = nil
        return .failed(failure)
    }

    /// The frame whose head `head` holds, once it is whole; a failure as soon as the bytes so
    /// far show one; nil while more are needed.
    private mutating func parseHead() -> Result<Frame, WebSocketFailure>? {
        guard head.count >= 2 else { return nil }
        let first = head[0]
        let second = head[1]
        if head.count == 2 {
            if first & 0x70 != 0 {
                return .failure(WebSocketFailure(.protocolError, "reserved bits set with no extension negotiated"))
            }
            guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
                return .failure(WebSocketFailure(.protocolError, "reserved opcode \(first & 0x0F)"))
            }
            if requiresMask, second & 0x80 == 0 {
                return .failure(WebSocketFailure(.protocolError, "a client frame must be masked"))
            }
            if opcode.isControl {
                if first & 0x80 == 0 {
                    return .failure(WebSocketFailure(.protocolError, "a control frame must not be fragmented"))
                }
                if second & 0x7F > 125 {
                    return .failure(WebSocketFailure(.protocolError, "a control frame carries at most 125 bytes"))
                }
            } else if opcode == .continuation, message == nil {
                return .failure(WebSocketFailure(.protocolError, "a continuation frame with no message to continue"))
            } else if opcode != .continuation, message != nil {
                return .failure(WebSocketFailure(.protocolError, "a new message before the last one ended"))
            }
        }
        let lengthCode = second & 0x7F
        let lengthBytes = lengthCode == 127 ? 8 : lengthCode == 126 ? 2 : 0
        let maskBytes = second & 0x80 != 0 ? 4 : 0
        if lengthCode == 127, head.count == 3, head[2] & 0x80 != 0 {
            return .failure(WebSocketFailure(.protocolError, "a 64-bit length with its top bit set"))
        }
        guard head.count >= 2 + lengthBytes else { return nil }
        var length: UInt64 = UInt64(lengthCode)
        if lengthBytes > 0 {
            length = 0
            for byte in head[2..<(2 + lengthBytes)] { length = length << 8 | UInt64(byte) }
        }
        let opcode = WebSocketOpcode(rawValue: first & 0x0F) ?? .binary
        // Decided as soon as the length is known, before the mask or the payload arrive.
        if !opcode.isControl, length > UInt64(maxMessageBytes - (message?.bytes.count ?? 0)) {
            return .failure(WebSocketFailure(.messageTooBig, "a message over the limit of \(maxMessageBytes) bytes"))
        }
        guard head.count == 2 + lengthBytes + maskBytes else { return nil }
        let m =
            maskBytes == 4
            ? (head[2 + lengthBytes], head[3 + lengthBytes], head[4 + lengthBytes], head[5 + lengthBytes])
            : (0, 0, 0, 0)
        if opcode == .text || opcode == .binary { message = Message(isText: opcode == .text) }
        if opcode.isControl { control.removeAll(keepingCapacity: true) }
        return .success(Frame(fin: first & 0x80 != 0, opcode: opcode, mask: m, remaining: Int(length)))
    }

    /// Unmasks a piece of the frame's payload into the message (checking text as it comes) or
    /// the control payload.
    private mutating func consume(_ piece: ArraySlice<UInt8>, of frame: inout Frame) -> WebSocketFailure? {
        let mask = frame.mask
        var offset = frame.maskOffset
        func unmasked(_ byte: UInt8) -> UInt8 {
            defer { offset = (offset + 1) & 3 }
            switch offset {
            case 0: return byte ^ mask.0
            case 1: return byte ^ mask.1
            case 2: return byte ^ mask.2
            default: return byte ^ mask.3
            }
        }
        defer { frame.maskOffset = offset }
        if frame.opcode.isControl {
            for byte in piece { control.append(unmasked(byte)) }
            return nil
        }
        guard var current = message else { return nil }
        message = nil
        defer { message = current }
        current.bytes.reserveCapacity(current.bytes.count + piece.count)
        if current.isText {
            for byte in piece {
                let plain = unmasked(byte)
                guard current.validation.accept(plain) else {
                    return WebSocketFailure(.invalidPayload, "a text message that is not UTF-8")
                }
                current.bytes.append(plain)
            }
        } else {
            for byte in piece { current.bytes.append(unmasked(byte)) }
        }
        return nil
    }

    /// A frame's payload has all arrived.
    private mutating func frameEnded(_ frame: Frame) -> Event? {
        switch frame.opcode {
        case .ping:
            return .ping(control)
        case .pong:
            return .pong(control)
        case .close:
            return closeEvent(control)
        case .text, .binary, .continuation:
            guard frame.fin, let whole = message else { return nil }
            message = nil
            if whole.isText {
                guard whole.validation.isComplete else {
                    return fail(WebSocketFailure(.invalidPayload, "a text message that is not UTF-8"))
                }
                return .message(.text(String(decoding: whole.bytes, as: UTF8.self)))
            }
            return .message(.binary(whole.bytes))
        }
    }

    private mutating func closeEvent(_ payload: [UInt8]) -> Event {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else {
            return fail(WebSocketFailure(.protocolError, "a close frame with a one-byte payload"))
        }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.mayBeSent else {
            return fail(WebSocketFailure(.protocolError, "close code \(code.rawValue) may not be sent"))
        }
        let reason = payload[2...]
        guard UTF8Validation.isValid(reason) else {
            return fail(WebSocketFailure(.invalidPayload, "a close reason that is not UTF-8"))
        }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }
}
