/// The byte classes of RFC 9110 §5.6 and RFC 9112 the parser checks.
enum HTTP1Syntax {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let carriageReturn = UInt8(ascii: "\r")
    static let lineFeed = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")

    /// Whether `byte` is a `tchar`, a byte a token (a method, a field name) may hold: digits,
    /// letters and ``!#$%&'*+-.^_`|~``, looked up in two 64-bit masks (bytes 0–63, 64–127)
    /// rather than through a chain of comparisons, since it runs over every field name's bytes.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool { tokenBit(byte) == 1 }

    @inline(__always)
    private static func tokenBit(_ byte: UInt8) -> UInt64 {
        let low: UInt64 = 0x03FF_6CFA_0000_0000, high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        let mask = byte < 64 ? low : byte < 128 ? high : 0
        return (mask >> UInt64(byte & 63)) & 1
    }

    /// Whether `bytes` is a token: one or more `tchar`s.
    static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        var index = 0
        while index < bytes.count {
            if !isTokenByte(bytes[index]) { return false }
            index += 1
        }
        return true
    }

    /// Whether `byte` is optional whitespace (`OWS`, `BWS`): a space or a tab.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// Whether `byte` is a control character a field value or chunk extension must not hold:
    /// C0 controls except HTAB, and DEL.
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }

    /// Whether `byte` is a decimal digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The value of a hexadecimal digit, or nil.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

extension HTTP1Syntax {
    /// Whether `bytes` are exactly `text`'s UTF-8.
    static func equals(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    /// `bytes` decoded as UTF-8 (U+FFFD for what is not), or `earlier` itself when it is
    /// spelled with exactly these bytes: a client on a kept-alive connection sends the same
    /// target and fields again and again, and a string shared costs one reference count where
    /// a new one costs a validation pass and, past 15 bytes, an allocation.
    static func string(_ bytes: UnsafeRawBufferPointer, reusing earlier: String?) -> String {
        if let earlier, spells(earlier, bytes) { return earlier }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text`'s UTF-8 is exactly `bytes` (read in place; false for a string without
    /// contiguous UTF-8, which a parsed one always has).
    @inline(__always)
    static func spells(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.utf8.count == bytes.count && text.utf8.withContiguousStorageIfAvailable { equal(UnsafeRawBufferPointer($0), bytes) } == true
    }

    /// The index of the first `byte` in `bytes[start..<end]`, looked for eight bytes at a time
    /// (a line or a request line is tens of bytes: a byte-by-byte loop cost ~5 instructions a
    /// byte, this about one).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = UInt64(byte) &* ones
        var index = start
        while index + 8 <= end {
            // A zero byte of `word` is a match: `(x - ones) & ~x & highs` sets the high bit of the
            // lowest zero byte (bits above a zero may be set falsely, never below, hence the lowest).
            // Little-endian order whatever the host's: the first byte is the lowest.
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Whether two byte buffers hold the same bytes, compared eight at a time.
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        var index = 0
        while index + 8 <= count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index += 8
        }
        while index < count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` spell `lowercase` (ASCII, lowercase) in any case.
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }

    /// Calls `body` with each member of a comma-separated list (RFC 9110 §5.6.1), without its
    /// surrounding whitespace; empty members are skipped.
    static func forEachListMember(_ list: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        for index in 0...list.count where index == list.count || list[index] == UInt8(ascii: ",") {
            let member = trimmingWhitespace(UnsafeRawBufferPointer(rebasing: list[start..<index]))
            if !member.isEmpty { body(member) }
            start = index + 1
        }
    }
}
