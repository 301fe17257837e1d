@testable import MockStackCore
import Testing

/// The token bytes, checked by mask, are exactly RFC 9110's `tchar`s.
@Suite struct HTTP1SyntaxTests {
    @Test func tokenBytesAreExactlyTheTchars() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTP1Syntax.isTokenByte(byte) == tchars.contains(byte), "byte \(byte)")
        }
        #expect(!Self.isToken(""))
        #expect(Self.isToken("X-Forwarded-For"))
        #expect(!Self.isToken("X-For warded"))
    }

    private static func isToken(_ text: String) -> Bool {
        let bytes = Array(text.utf8)[...]
        return HTTP1Syntax.isToken(bytes.span)
    }
}
