/// Bytes looked over eight at a time, for the searches that run over every request and every
/// JSON string: the HTTP/1.1 parser's line ends and delimiters, the JSON encoder's escapes.
public enum ByteWords {
    /// The eight bytes of `bytes` from `index`, the first the lowest whatever the host's byte
    /// order. Read byte by byte, the last first: its bounds check covers the other seven, and
    /// the compiler makes the eight reads one load.
    @inlinable @inline(__always)
    public static func word(_ bytes: Span<UInt8>, at index: Int) -> UInt64 {
        var word = UInt64(bytes[index + 7]) &<< 56
        for offset in 0..<7 { word |= UInt64(bytes[index + offset]) &<< UInt64(8 * offset) }
        return word
    }

    /// A mask whose lowest set bit is the high bit of the first byte of `word` below `limit`
    /// (at most 0x80), and zero when there is none: `(x - limit·ones) & ~x & highs`. Bits above
    /// the first such byte may be set falsely, never below it; bytes of 0x80 and over never count.
    /// `bytesBelow(word ^ pattern, 1)` finds a byte equal to `pattern`'s.
    @inlinable @inline(__always)
    public static func bytesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- UInt64(limit) &* 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// `byte` in each of the eight bytes of a word.
    @inlinable @inline(__always)
    public static func repeating(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }
}
