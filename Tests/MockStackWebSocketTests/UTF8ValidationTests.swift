@testable import MockStackWebSocket
import Testing

struct UTF8ValidationTests {
    /// Agrees with the standard library's decoder on every one- and two-byte input and on
    /// three- and four-byte inputs around each boundary the rules draw.
    @Test func agreesWithTheStandardLibrary() {
        var disagreements: [[UInt8]] = []
        func check(_ bytes: [UInt8]) {
            if UTF8Validation.isValid(bytes) != (String(validating: bytes, as: UTF8.self) != nil) { disagreements.append(bytes) }
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
        let interesting: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        for lead: UInt8 in [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5] {
            for second in interesting {
                for third in interesting {
                    check([lead, second, third])
                    for fourth in interesting { check([lead, second, third, fourth]) }
                }
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test func knowsWhenACharacterIsUnfinished() {
        var validation = UTF8Validation()
        let lead = validation.accept([0xF0, 0x9F, 0x91])
        #expect(lead && !validation.isComplete)
        let last = validation.accept(0x8B)
        #expect(last && validation.isComplete)
    }
}
