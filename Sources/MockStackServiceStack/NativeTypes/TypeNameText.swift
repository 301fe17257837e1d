/// Cuts of text at an ASCII mark, named after ServiceStack's own text helpers (`LeftPart`,
/// `LastRightPart`) that its generators cut type names with: a type name as metadata spells it
/// (``List`1``, `'T`, `System.Byte[]`, `Dictionary<String,Poco>`), or a file's extension.
///
/// They work on the UTF-8 bytes: every mark they cut at is ASCII, so the byte it sits on is also
/// a character boundary, and the writers cut every member's type this way, where walking
/// characters (grapheme clusters) would cost more than the rest of the writing.
extension StringProtocol where SubSequence == Substring {
    /// The text before the first `mark`, all of it when there is none.
    func leftPart(_ mark: Unicode.Scalar) -> Substring {
        guard let index = utf8.firstIndex(of: UInt8(ascii: mark)) else { return self[...] }
        return self[..<index]
    }

    /// The text after the first `mark`, all of it when there is none.
    func rightPart(_ mark: Unicode.Scalar) -> Substring {
        guard let index = utf8.firstIndex(of: UInt8(ascii: mark)) else { return self[...] }
        return self[utf8.index(after: index)...]
    }

    /// The text before the last `mark`, all of it when there is none.
    func lastLeftPart(_ mark: Unicode.Scalar) -> Substring {
        let text = self[...]
        guard let index = text.utf8.lastIndex(of: UInt8(ascii: mark)) else { return text }
        return text[..<index]
    }

    /// The text after the last `mark`, all of it when there is none (a name without its namespace).
    func lastRightPart(_ mark: Unicode.Scalar) -> Substring {
        let text = self[...]
        guard let index = text.utf8.lastIndex(of: UInt8(ascii: mark)) else { return text }
        return text[text.utf8.index(after: index)...]
    }

    /// Whether the text holds `mark`.
    func containsMark(_ mark: Unicode.Scalar) -> Bool { utf8.contains(UInt8(ascii: mark)) }
}

extension String {
    /// The name without the `'` metadata writes before a generic parameter's name (`'T`); the
    /// same string when it has none, as nearly every name.
    var withoutParameterMark: String {
        utf8.first == UInt8(ascii: "'") ? String(self[...].withoutParameterMark) : self
    }
}

extension Substring {
    /// The name without the `'` metadata writes before a generic parameter's name (`'T`).
    var withoutParameterMark: Substring {
        let quote = UInt8(ascii: "'")
        guard utf8.first == quote else { return self }
        return self[(utf8.firstIndex { $0 != quote } ?? endIndex)...]
    }
}
