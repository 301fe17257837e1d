import FuzzSupport
import MockStackWebSocket

/// The WebSocket frame reader: any bytes give the same events whether they arrive whole or a
/// few at a time (the first byte picks how few); a failure is 1002, 1007 or 1009 and ends the
/// events, as a close does; no message is over the limit, and text is what its bytes spell.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(start, count)
    let limit = 4096
    var whole = WebSocketFrameReader(maxMessageBytes: limit)
    let expected = whole.read(bytes)
    var trickled = WebSocketFrameReader(maxMessageBytes: limit)
    let pieceSize = 1 + Int(bytes.first ?? 0) % 7
    var events: [WebSocketFrameReader.Event] = []
    for offset in stride(from: 0, to: bytes.count, by: pieceSize) {
        events += trickled.read(Array(bytes[offset..<min(bytes.count, offset + pieceSize)]))
    }
    Fuzz.require(events == expected, "fed whole: \(expected); in pieces: \(events)")
    for (index, event) in expected.enumerated() {
        switch event {
        case .message(.text(let text)):
            Fuzz.require(text.utf8.count <= limit, "a text message of \(text.utf8.count) bytes")
        case .message(.binary(let binary)):
            Fuzz.require(binary.count <= limit, "a binary message of \(binary.count) bytes")
        case .ping(let payload), .pong(let payload):
            Fuzz.require(payload.count <= 125, "a control payload of \(payload.count) bytes")
        case .close(let code, _):
            Fuzz.require(code?.mayBeSent ?? true, "close code \(String(describing: code))")
            Fuzz.require(index == expected.count - 1, "an event after a close")
        case .failed(let failure):
            Fuzz.require([1002, 1007, 1009].contains(failure.code.rawValue), "failed with \(failure.code)")
            Fuzz.require(index == expected.count - 1, "an event after a failure")
        }
    }
    return 0
}
