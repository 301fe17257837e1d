import MockStackCore

/// What the load cache keeps of a load that succeeded (docs/load-cache.md): the questions it
/// asked of its fixture source, in order, and a 128-bit digest (``FixtureDigest``) over its key,
/// those questions and every answer — each app folder listed, each `fileExists` answer, the bytes of each file
/// read. Asked again and digested to the same value, the answers are those that passed every
/// check.
///
/// On disk: `mockstack load record 2\n`, the key (a 32-bit little-endian length, then its
/// UTF-8), the question count, each question (`L`, or `E`/`R` and a path), then the 16-byte
/// digest. Decoding trusts nothing it reads: lengths are bounded, and anything malformed is
/// no record at all.
struct LoadRecord: Equatable {
    var key: String
    var questions: [FixtureExchange.Question]
    var digest: [UInt8]

    static let magic = Array("mockstack load record 2\n".utf8)
    static let digestBytes = 16
    /// Bounds for reading a record: past any of them it is refused as corrupt.
    static let maxBytes = 4 << 20
    static let maxQuestions = 100_000
    static let maxTextBytes = 64 << 10

    init(key: String, exchanges: [FixtureExchange]) {
        self.key = key
        questions = exchanges.map(\.question)
        digest = Self.digest(key: key, exchanges: exchanges)
    }

    /// The digest of `exchanges` under `key`.
    static func digest(key: String, exchanges: [FixtureExchange]) -> [UInt8] {
        var hasher = FixtureDigest()
        var scratch: [UInt8] = []
        scratch.reserveCapacity(256)
        Self.append(text: key, to: &scratch)
        for exchange in exchanges {
            Self.append(exchange.question, to: &scratch)
            switch exchange.answer {
            case .folders(let folders):
                scratch.append(UInt8(ascii: "f"))
                Self.append(UInt32(truncatingIfNeeded: folders.count), to: &scratch)
                for folder in folders { Self.append(text: folder, to: &scratch) }
            case .exists(let exists):
                scratch.append(exists ? UInt8(ascii: "y") : UInt8(ascii: "n"))
            case .bytes(let bytes):
                scratch.append(UInt8(ascii: "b"))
                Self.append(UInt64(bytes.count), to: &scratch)
                hasher.update(scratch)
                scratch.removeAll(keepingCapacity: true)
                hasher.update(bytes)
            case .failed:
                scratch.append(UInt8(ascii: "x"))
            }
            if scratch.count >= 4096 {
                hasher.update(scratch)
                scratch.removeAll(keepingCapacity: true)
            }
        }
        hasher.update(scratch)
        return hasher.finalize()
    }

    /// The record as it is written.
    var encoded: [UInt8] {
        var out = Self.magic
        Self.append(text: key, to: &out)
        Self.append(UInt32(truncatingIfNeeded: questions.count), to: &out)
        for question in questions { Self.append(question, to: &out) }
        out += digest
        return out
    }

    /// A record read back; nil when `bytes` is not one, whatever they hold.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count <= Self.maxBytes, bytes.starts(with: Self.magic) else { return nil }
        var reader = Reader(bytes: bytes, offset: Self.magic.count)
        guard let key = reader.text(), let count = reader.uint32(), count <= Self.maxQuestions else { return nil }
        var questions: [FixtureExchange.Question] = []
        questions.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let tag = reader.byte() else { return nil }
            switch tag {
            case UInt8(ascii: "L"): questions.append(.appFolders)
            case UInt8(ascii: "E"):
                guard let path = reader.text() else { return nil }
                questions.append(.fileExists(path))
            case UInt8(ascii: "R"):
                guard let path = reader.text() else { return nil }
                questions.append(.read(path))
            default: return nil
            }
        }
        guard let digest = reader.bytes(Self.digestBytes), reader.atEnd else { return nil }
        self.key = key
        self.questions = questions
        self.digest = digest
    }

    private static func append(_ question: FixtureExchange.Question, to out: inout [UInt8]) {
        switch question {
        case .appFolders: out.append(UInt8(ascii: "L"))
        case .fileExists(let path):
            out.append(UInt8(ascii: "E"))
            append(text: path, to: &out)
        case .read(let path):
            out.append(UInt8(ascii: "R"))
            append(text: path, to: &out)
        }
    }

    private static func append(text: String, to out: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: Integer.bitWidth, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Reads a record's fields in order, every read bounds-checked.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? { bytes(1)?.first }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func uint32() -> UInt32? {
            guard let four = bytes(4) else { return nil }
            return four.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// A length-prefixed UTF-8 string: nil when too long or not valid UTF-8.
        mutating func text() -> String? {
            guard let length = uint32(), length <= LoadRecord.maxTextBytes, let utf8 = bytes(Int(length)) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}
