@testable import MockStackCore
import Testing

/// The token bytes, checked by mask, are exactly RFC 9110's `tchar`s.
@Suite struct HTTP1SyntaxTests {
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
