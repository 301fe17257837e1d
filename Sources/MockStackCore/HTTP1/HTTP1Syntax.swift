/// The byte classes of RFC 9110 §5.6 and RFC 9112 the parser checks, and the byte searches and
/// comparisons it makes over the spans the transport lends it.
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
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        let mask = byte < 64 ? low : byte < 128 ? high : 0
        return (mask >> UInt64(byte & 63)) & 1
    }

    /// Whether `bytes` is a token: one or more `tchar`s.
    static func isToken(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for index in bytes.indices where !isTokenByte(bytes[index]) { return false }
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

    /// The range of `bytes` without leading and trailing spaces and tabs.
    static func trimmedRange(_ bytes: Span<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Whether `bytes` holds a byte for which `predicate` is true.
    static func contains(_ bytes: Span<UInt8>, where predicate: (UInt8) -> Bool) -> Bool {
        for index in bytes.indices where predicate(bytes[index]) { return true }
        return false
    }
}

extension HTTP1Syntax {
    /// Whether `bytes` are exactly `text`'s UTF-8. Inlined, a literal `text` compiles to a
    /// few byte comparisons.
    @inline(__always)
    static func equals(_ bytes: Span<UInt8>, _ text: String) -> Bool {
        let expected = text.utf8
        guard bytes.count == expected.count else { return false }
        var index = 0
        for byte in expected {
            if bytes[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// `bytes` decoded as UTF-8 (U+FFFD for what is not), or `earlier` itself when it is
    /// spelled with exactly these bytes: a client on a kept-alive connection sends the same
    /// target and fields again and again, and a string shared costs one reference count where
    /// a new one costs a validation pass and, past 15 bytes, an allocation.
    static func string(_ bytes: Span<UInt8>, reusing earlier: String?) -> String {
        if let earlier, spells(earlier, bytes) { return earlier }
        return UTF8Bytes.string(decoding: bytes)
    }

    /// Whether `text`'s UTF-8 is exactly `bytes`.
    @inline(__always)
    static func spells(_ text: String, _ bytes: Span<UInt8>) -> Bool {
        text.utf8.count == bytes.count && UTF8Bytes.withSpan(text) { equal($0, bytes) }
    }

    /// The index of the first `byte` in `bytes[start..<end]`, looked for eight bytes at a time
    /// (a line or a request line is tens of bytes, and this scan runs over every one of them,
    /// so a word at a time pays where a byte-by-byte loop would not).
    static func firstIndex(of byte: UInt8, in bytes: Span<UInt8>, from start: Int, to end: Int) -> Int? {
        let pattern = ByteWords.repeating(byte)
        var index = start
        while index + 8 <= end {
            // A zero byte of `word ^ pattern` is a match; the mask's lowest bit marks the first.
            let found = ByteWords.bytesBelow(ByteWords.word(bytes, at: index) ^ pattern, 1)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Whether two spans hold the same bytes, compared eight at a time.
    static func equal(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        var index = 0
        while index + 8 <= count {
            if ByteWords.word(a, at: index) != ByteWords.word(b, at: index) { return false }
            index += 8
        }
        while index < count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` spell `lowercase` (ASCII, lowercase) in any case; inlined as ``equals(_:_:)``.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: Span<UInt8>, _ lowercase: String) -> Bool {
        let expected = lowercase.utf8
        guard bytes.count == expected.count else { return false }
        var index = 0
        for byte in expected {
            let found = bytes[index]
            if found.asciiLowercased != byte { return false }
            index += 1
        }
        return true
    }

    /// Calls `body` with each member of a comma-separated list (RFC 9110 §5.6.1), without its
    /// surrounding whitespace; empty members are skipped.
    static func forEachListMember(_ list: Span<UInt8>, _ body: (Span<UInt8>) -> Void) {
        var start = 0
        for index in 0...list.count where index == list.count || list[index] == UInt8(ascii: ",") {
            let piece = list.extracting(start..<index)
            let member = piece.extracting(trimmedRange(piece))
            if !member.isEmpty { body(member) }
            start = index + 1
        }
    }
}
