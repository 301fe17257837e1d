/// Checks UTF-8 a byte at a time, across any number of pieces (a text message's fragments):
/// the longest valid prefix is known at every byte, so a bad sequence is found as soon as it
/// arrives. Overlong forms, surrogates and code points past U+10FFFF are invalid (RFC 3629).
public struct UTF8Validation: Sendable, Equatable {
    /// Continuation bytes the current sequence still needs.
    private var needed = 0
    /// The range the next continuation byte must fall in (narrower right after some lead bytes).
    private var lowest: UInt8 = 0x80
    private var highest: UInt8 = 0xBF

    public init() {}

    /// Takes the next byte. - Returns: false when the bytes so far cannot be UTF-8.
    public mutating func accept(_ byte: UInt8) -> Bool {
        if needed == 0 {
            switch byte {
            case 0x00...0x7F: return true
            case 0xC2...0xDF: needed = 1
            case 0xE0:
                needed = 2
                lowest = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
            case 0xED:
                needed = 2
                highest = 0x9F
            case 0xF0:
                needed = 3
                lowest = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4:
                needed = 3
                highest = 0x8F
            default: return false
            }
            return true
        }
        guard byte >= lowest, byte <= highest else { return false }
        needed -= 1
        lowest = 0x80
        highest = 0xBF
        return true
    }

    /// Takes every byte of `bytes`. - Returns: false at the first that cannot be UTF-8.
    public mutating func accept(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where !accept(byte) { return false }
        return true
    }

    /// Whether the bytes so far end on a whole character.
    public var isComplete: Bool { needed == 0 }

    /// Whether `bytes` are UTF-8 as a whole.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validation = UTF8Validation()
        return validation.accept(bytes) && validation.isComplete
    }
}
