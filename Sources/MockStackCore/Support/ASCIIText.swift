/// The ASCII rules text formats share — HTTP fields, form data, .NET and qs values: which
/// bytes are spaces, how a letter's case is folded, and trimming by them. Over bytes, without
/// Unicode's rules, which these formats do not follow.
extension UInt8 {
    /// The byte with an ASCII capital made small (`A`–`Z` → `a`–`z`); any other byte as it is.
    @inlinable
    public var asciiLowercased: UInt8 { (self >= 0x41 && self <= 0x5A) ? self | 0x20 : self }

    /// Whether the byte is an ASCII space, tab, line feed or carriage return.
    @inlinable
    public var isASCIISpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    public func trimmingASCIISpace() -> Substring {
        // Over the UTF-8 bytes: the spaces are all ASCII, and walking `Character`s would
        // segment graphemes for nothing.
        let text = Substring(self)
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !$0.isASCIISpace }),
            let last = bytes.lastIndex(where: { !$0.isASCIISpace })
        else { return "" }
        // After the last non-space byte is a character boundary (a space or the end), even when
        // that byte ends a multi-byte character.
        return text[first..<bytes.index(after: last)]
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing ASCII spaces, tabs and line breaks.
    public func trimmingASCIISpace() -> ArraySlice<UInt8> {
        var start = startIndex
        var end = endIndex
        while start < end, self[start].isASCIISpace { start += 1 }
        while end > start, self[end - 1].isASCIISpace { end -= 1 }
        return self[start..<end]
    }
}
