/// Zero-padded decimals, as the fixed-width fields of .NET's dates, durations and JSV need them.

/// Zero-padded decimal text.
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
