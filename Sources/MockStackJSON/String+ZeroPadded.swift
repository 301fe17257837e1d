extension String {
    /// A non-negative integer in `radix` (lower-case digits), with zeros in front up to `width`
    /// digits: `String(zeroPadded: 0x1f, radix: 16, width: 4)` is `001f`. A longer number is
    /// written whole.
    ///
    /// Here, in the leaf module, because every layer writes fixed-width numbers: JSON's `\u`
    /// escapes, entity tags, tokens and session ids, the fields of .NET dates and durations.
    public init(zeroPadded value: some BinaryInteger, radix: Int = 10, width: Int) {
        let digits = String(value, radix: radix)
        self = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
