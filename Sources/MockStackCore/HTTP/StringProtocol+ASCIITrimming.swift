extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    public func trimmingASCIISpace() -> Substring {
        // Over the UTF-8 bytes: the spaces are all ASCII, and walking `Character`s would
        // segment graphemes for nothing.
        let text = Substring(self)
        let bytes = text.utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        // After the last non-space byte is a character boundary (a space or the end), even when
        // that byte ends a multi-byte character.
        return text[first..<bytes.index(after: last)]
    }
}
