/// Strings and byte spans, one to the other: the code above the transport reads bytes through
/// `Span`, bounds-checked, and reaches a string's bytes, or makes a string or an array from a
/// span, only through these.
///
/// They are the one place outside the transport that touches a pointer, each for one
/// conversion the standard library offers only through one (or, for the first, only from the
/// 2025 platform releases on): the pointer never leaves the call, and what the caller gets is
/// a span or a value.
public enum UTF8Bytes {
    /// Calls `body` with `text`'s UTF-8 as a span: in place (a native string, which every string
    /// here is, has it in one piece), else over a copy.
    @inlinable @inline(__always)
    public static func withSpan<Result>(_ text: String, _ body: (Span<UInt8>) -> Result) -> Result {
        let inPlace = unsafe text.utf8.withContiguousStorageIfAvailable { buffer in
            unsafe body(Span(_unsafeElements: buffer))
        }
        if let inPlace { return inPlace }
        let copy = Array(text.utf8)[...]
        return body(copy.span)
    }

    /// `bytes` decoded as UTF-8, U+FFFD for what is not.
    @inlinable
    public static func string(decoding bytes: Span<UInt8>) -> String {
        unsafe bytes.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `bytes` to `array`.
    @inlinable
    public static func append(_ bytes: Span<UInt8>, to array: inout [UInt8]) {
        unsafe bytes.withUnsafeBufferPointer { unsafe array.append(contentsOf: $0) }
    }
}
