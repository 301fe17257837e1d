/// Small text helpers for the ASCII-only formats .NET writes (dates, durations, JSV).

/// Zero-padded decimal text.
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
