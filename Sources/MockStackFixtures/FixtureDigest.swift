import MockStackJSON

/// The load cache's 128-bit digest of a load's answers (``LoadRecord``): not a cryptographic
/// hash, on purpose. It guards against accidental difference — an edited, added or removed
/// fixture — not against an adversary, who could write a record outright (the cache folder is
/// trusted as the binary is, docs/load-cache.md). SHA-256 took a large share of a hit's
/// start-up over the shipped apps' megabytes (Benchmarks/LOG.md); this reads eight bytes at a
/// time into four independent lanes.
///
/// Each word goes into its lane as `rotate((lane ^ word) × K)`: for a given lane, a step is a
/// bijection of the word and of the lane, so one changed word always changes the lane's end
/// state; several changed words would have to cancel exactly. The lanes, the lengths and the
/// number of chunks are then mixed into 128 bits with splitmix64's finalizer. Each
/// ``update(_:)`` is a chunk of its own (its tail is padded, and its length counted): the
/// record and the replay feed the same chunks in the same order.
struct FixtureDigest {
    private var a: UInt64 = 0x243F_6A88_85A3_08D3
    private var b: UInt64 = 0x1319_8A2E_0370_7344
    private var c: UInt64 = 0xA409_3822_299F_31D0
    private var d: UInt64 = 0x082E_FA98_EC4E_6C89
    private var length: UInt64 = 0
    private var chunks: UInt64 = 0

    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    private static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (lane ^ word) &* multiplier
        return mixed << 31 | mixed >> 33
    }

    mutating func update(_ bytes: [UInt8]) {
        let span = bytes.span
        let count = bytes.count
        var index = 0
        while index + 32 <= count {
            a = Self.step(a, ByteWords.word(span, at: index))
            b = Self.step(b, ByteWords.word(span, at: index + 8))
            c = Self.step(c, ByteWords.word(span, at: index + 16))
            d = Self.step(d, ByteWords.word(span, at: index + 24))
            index += 32
        }
        while index + 8 <= count {
            a = Self.step(a, ByteWords.word(span, at: index))
            (a, b, c, d) = (b, c, d, a)
            index += 8
        }
        var tail = UInt64(count - index) << 56
        for offset in 0..<(count - index) { tail |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
        d = Self.step(d, tail)
        length &+= UInt64(count)
        chunks &+= 1
    }

    /// The 16-byte digest of `bytes`, one chunk.
    static func of(_ bytes: [UInt8]) -> [UInt8] {
        var digest = FixtureDigest()
        digest.update(bytes)
        return digest.finalize()
    }

    /// The 16-byte digest of every chunk so far.
    func finalize() -> [UInt8] {
        let mixed: UInt64 = a &+ (b << 21 | b >> 43) &+ (c << 42 | c >> 22) &+ d ^ length
        let high = Self.avalanche(mixed)
        let remixed: UInt64 = d &+ (c << 21 | c >> 43) &+ (b << 42 | b >> 22) &+ a ^ chunks &* Self.multiplier
        let low = Self.avalanche(high ^ remixed)
        return (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> UInt64(8 * ($0 % 8))) }
    }

    /// splitmix64's finalizer: every input bit reaches every output bit.
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ z >> 30) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ z >> 27) &* 0x94D0_49BB_1331_11EB
        return z ^ z >> 31
    }
}
