/// `application/x-www-form-urlencoded` text — a query string, a form body — as name and value
/// pairs: split at `&` and the first `=`, percent-decoded with `+` as a space, in order,
/// repeated names kept; empty parts and parts with an empty name are left out.
///
/// Over the text's own UTF-8 bytes: ServiceStack apps split every request's query and form
/// this way, and splitting `String`s costs several times as much.
public enum URLEncodedPairs {
    /// The pairs of `text`, or nil when there are more than `limit`.
    public static func split(_ text: String, limit: Int = .max) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        let complete = UTF8Bytes.withSpan(text) { split($0, limit: limit, into: &result) }
        return complete ? result : nil
    }

    /// Appends the pairs of `bytes` to `result`; false when there are more than `limit`.
    ///
    /// One pass over each part finds its end, its first `=` and whether its name or value
    /// holds an escape or a `+`; a piece with neither becomes a string as it is, one with
    /// only `+`s has them replaced in a copy.
    private static func split(
        _ bytes: Span<UInt8>, limit: Int, into result: inout [(name: String, value: String)]
    ) -> Bool {
        let count = bytes.count
        result.reserveCapacity(4)
        var start = 0
        while start < count {
            var end = start
            var equals = -1
            var nameMarks = Marks()
            var valueMarks = Marks()
            while end < count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "&") { break }
                if byte == UInt8(ascii: "=") && equals < 0 {
                    equals = end
                } else if equals < 0 {
                    nameMarks.note(byte)
                } else {
                    valueMarks.note(byte)
                }
                end += 1
            }
            if end > start {
                guard result.count < limit else { return false }
                let name = string(bytes.extracting(start..<(equals < 0 ? end : equals)), marks: nameMarks)
                if !name.isEmpty {
                    let value = equals < 0 ? "" : string(bytes.extracting((equals + 1)..<end), marks: valueMarks)
                    result.append((name, value))
                }
            }
            start = end + 1
        }
        return true
    }

    /// Whether a piece holds a `+` or a `%`.
    private struct Marks {
        var plus = false, percent = false

        @inline(__always)
        mutating func note(_ byte: UInt8) {
            plus = plus || byte == UInt8(ascii: "+")
            percent = percent || byte == UInt8(ascii: "%")
        }
    }

    /// A piece as a string: percent-decoded with `+` as a space (``PercentDecoding``) when it
    /// holds an escape, its `+`s made spaces when it holds only those, else its bytes as they are.
    private static func string(_ bytes: Span<UInt8>, marks: Marks) -> String {
        if !marks.plus && !marks.percent { return UTF8Bytes.string(decoding: bytes) }
        var copy: [UInt8] = []
        UTF8Bytes.append(bytes, to: &copy)
        guard !marks.percent else { return PercentDecoding.decode(bytes: copy[...], plusAsSpace: true) }
        for index in copy.indices where copy[index] == UInt8(ascii: "+") { copy[index] = UInt8(ascii: " ") }
        return String(decoding: copy, as: UTF8.self)
    }
}
