extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    public func trimmingASCIISpace() -> Substring {
        let text = Substring(self)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }
}

extension String {
    /// Whether this string's UTF-8 begins with `prefix`'s, byte for byte: no Unicode
    /// equivalence (which `hasPrefix` applies and a path match does not want), and for native
    /// strings a plain loop over two buffers instead of the generic `starts(with:)` walk.
    @inlinable
    public func hasUTF8Prefix(_ prefix: String) -> Bool {
        // The length first: `utf8.count` is stored in a native string, and most mounts a
        // path is tried against fail here.
        guard utf8.count >= prefix.utf8.count else { return false }
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { own in
            prefix.utf8.withContiguousStorageIfAvailable { wanted in
                own.prefix(wanted.count).elementsEqual(wanted)
            }
        }
        return (compared ?? nil) ?? utf8.starts(with: prefix.utf8)
    }
}
