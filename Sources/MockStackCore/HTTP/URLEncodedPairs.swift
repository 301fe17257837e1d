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
    private static func split(_ bytes: Span<UInt8>, limit: Int, into result: inout [(name: String, value: String)]) -> Bool {
        var ampersands = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "&") { ampersands += 1 }
        result.reserveCapacity(ampersands + 1)
        var start = 0
        while start < bytes.count {
            var end = start
            var equals: Int?
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if start < end {
                guard result.count < limit else { return false }
                let name = decoded(bytes.extracting(start..<(equals ?? end)))
                if !name.isEmpty {
                    let value = if let equals { decoded(bytes.extracting((equals + 1)..<end)) } else { "" }
                    result.append((name, value))
                }
            }
            start = end + 1
        }
        return true
    }

    /// Percent-decoded with `+` as a space (``PercentDecoding``); the bytes as they are when they
    /// hold neither, which is nearly always.
    private static func decoded(_ bytes: Span<UInt8>) -> String {
        var hasPlus = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                var copy: [UInt8] = []
                UTF8Bytes.append(bytes, to: &copy)
                return PercentDecoding.decode(bytes: copy[...], plusAsSpace: true)
            }
            if byte == UInt8(ascii: "+") { hasPlus = true }
        }
        guard hasPlus else { return UTF8Bytes.string(decoding: bytes) }
        var spaced: [UInt8] = []
        spaced.reserveCapacity(bytes.count)
        for index in bytes.indices { spaced.append(bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index]) }
        return String(decoding: spaced, as: UTF8.self)
    }
}
