/// Small text helpers for the ASCII-only formats .NET writes (dates, durations, JSV).

extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    func trimmingASCIISpace() -> Substring {
        let text = Substring(self)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }
}

/// Zero-padded decimal text.
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
