import MockStackCore
import Testing

@Suite struct HexTextTests {
    @Test func writesTwoLowerCaseDigitsAByte() {
        #expect(HexText.of([0x00, 0x0F, 0xAB, 0xFF]) == "000fabff")
        #expect(HexText.of([UInt8]()) == "")
        #expect(HexText.of([UInt8](repeating: 0x7E, count: 3)[1...]) == "7e7e")
    }
}
