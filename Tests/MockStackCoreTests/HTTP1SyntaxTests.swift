@testable import MockStackCore
import Testing

/// The byte classes the parser checks eight bytes at a time agree with their byte-by-byte
/// definitions, whatever byte and wherever in the word.
@Suite struct HTTP1SyntaxTests {
    @Test func aForbiddenControlIsFoundAtEveryPlace() {
        for byte in UInt8.min...UInt8.max {
            let forbidden = (byte < 0x20 && byte != 0x09) || byte == 0x7F
            // Every length from one byte to past two words, every place in it.
            for length in 1...19 {
                for place in 0..<length {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    value[place] = byte
                    let found = value.withUnsafeBytes { HTTP1Syntax.containsForbiddenControl($0) }
                    if found != forbidden { Issue.record("byte \(byte) at \(place) of \(length): found \(found)") }
                }
            }
        }
        // Bytes above 0x7F (obs-text) and tabs next to each other do not count.
        let allowed: [UInt8] = [0x80, 0xFF, 0x09, 0x09, 0xC3, 0xA9, 0x20, 0x7E, 0x21, 0x09]
        #expect(!allowed.withUnsafeBytes { HTTP1Syntax.containsForbiddenControl($0) })
        #expect(![UInt8]().withUnsafeBytes { HTTP1Syntax.containsForbiddenControl($0) })
    }

    @Test func tokenBytesAreExactlyTheTchars() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTP1Syntax.isTokenByte(byte) == tchars.contains(byte), "byte \(byte)")
        }
        #expect(!Array("".utf8).withUnsafeBytes { HTTP1Syntax.isToken($0) })
        #expect(Array("X-Forwarded-For".utf8).withUnsafeBytes { HTTP1Syntax.isToken($0) })
        #expect(!Array("X-For warded".utf8).withUnsafeBytes { HTTP1Syntax.isToken($0) })
    }
}
