import MockStackCore

/// A .NET `TimeSpan`, in 100-ns ticks. ServiceStack writes it as an XSD duration (`PT1H`,
/// `P1DT2H`, `PT0.5S`, `PT0S`) and reads that or .NET's constant form (`1.02:00:00`).
public struct TimeSpanValue: Sendable, Equatable {
    public var ticks: Int64

    public init(ticks: Int64) { self.ticks = ticks }

    public static let zero = TimeSpanValue(ticks: 0)

    /// Parses an XSD duration or `[-][d.]hh:mm[:ss[.fffffff]]`.
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingASCIISpace()
        if let ticks = Self.parseXSD(trimmed) ?? Self.parseConstant(trimmed) {
            self.init(ticks: ticks)
        } else {
            return nil
        }
    }

    /// The XSD duration ServiceStack writes.
    public var xsdText: String {
        if ticks == 0 { return "PT0S" }
        var remaining = ticks.magnitude
        let perSecond = UInt64(CivilTime.ticksPerSecond)
        let days = remaining / (86_400 * perSecond)
        remaining -= days * 86_400 * perSecond
        let hours = remaining / (3_600 * perSecond)
        remaining -= hours * 3_600 * perSecond
        let minutes = remaining / (60 * perSecond)
        remaining -= minutes * 60 * perSecond
        var text = ticks < 0 ? "-P" : "P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || minutes > 0 || remaining > 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if remaining > 0 {
                text += String(remaining / perSecond)
                var fraction = String(zeroPadded: Int(remaining % perSecond), width: 7)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                if !fraction.isEmpty { text += "." + fraction }
                text += "S"
            }
        }
        return text
    }

    /// `[-]P[nY][nM][nW][nD][T[nH][nM][n[.f]S]]`, in exact integer ticks (ServiceStack writes
    /// `TimeSpan.MaxValue` as `P10675199DT2H48M5.4775807S`, which a `Double` cannot hold). A year
    /// is 365 days and a month 30, as before; any component may have a fraction. Nil past
    /// `TimeSpan`'s range rather than overflowing.
    private static func parseXSD(_ text: Substring) -> Int64? {
        let bytes = text.utf8
        var index = bytes.startIndex
        let negative = index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "P") else { return nil }
        index = bytes.index(after: index)
        var total = TickSum()
        var inTime = false
        var sawComponent = false
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "T"), !inTime {
                inTime = true
                index = bytes.index(after: index)
                continue
            }
            guard let number = DecimalDigits(bytes, from: &index), index < bytes.endIndex else { return nil }
            let unit: Int64
            switch (bytes[index], inTime) {
            case (UInt8(ascii: "Y"), false): unit = 365 * CivilTime.ticksPerDay
            case (UInt8(ascii: "M"), false): unit = 30 * CivilTime.ticksPerDay
            case (UInt8(ascii: "W"), false): unit = 7 * CivilTime.ticksPerDay
            case (UInt8(ascii: "D"), false): unit = CivilTime.ticksPerDay
            case (UInt8(ascii: "H"), true): unit = 3_600 * CivilTime.ticksPerSecond
            case (UInt8(ascii: "M"), true): unit = 60 * CivilTime.ticksPerSecond
            case (UInt8(ascii: "S"), true): unit = CivilTime.ticksPerSecond
            default: return nil
            }
            index = bytes.index(after: index)
            guard total.add(number, times: unit) else { return nil }
            sawComponent = true
        }
        guard sawComponent else { return nil }
        return total.ticks(negative: negative)
    }

    /// .NET's constant form `[-][d.]hh:mm[:ss[.fffffff]]`: hours below 24, minutes and seconds
    /// below 60, at most seven fraction digits, and the total within `TimeSpan`'s range
    /// (`-10675199.02:48:05.4775808` is `TimeSpan.MinValue`, one tick more is refused).
    private static func parseConstant(_ text: Substring) -> Int64? {
        var rest = text
        let negative = rest.hasPrefix("-")
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var days: UInt64 = 0
        var hourText = parts[0]
        if let dot = hourText.utf8.firstIndex(of: UInt8(ascii: ".")) {
            guard let d = wholeNumber(hourText[..<dot], below: 10_675_200) else { return nil }
            days = d
            hourText = hourText[hourText.utf8.index(after: dot)...]
        }
        guard let hours = wholeNumber(hourText, below: 24), let minutes = wholeNumber(parts[1], below: 60) else {
            return nil
        }
        var seconds: UInt64 = 0
        var fraction: UInt64 = 0
        if parts.count == 3 {
            var secondText = parts[2]
            var fractionText: Substring = ""
            if let dot = secondText.utf8.firstIndex(of: UInt8(ascii: ".")) {
                fractionText = secondText[secondText.utf8.index(after: dot)...]
                secondText = secondText[..<dot]
                guard (1...7).contains(fractionText.utf8.count),
                    let digits = wholeNumber(fractionText, below: 10_000_000)
                else { return nil }
                fraction = digits
                for _ in fractionText.utf8.count..<7 { fraction *= 10 }
            }
            guard let whole = wholeNumber(secondText, below: 60) else { return nil }
            seconds = whole
        }
        // Every factor is range-checked, so only the last sums can leave Int64's range.
        let perSecond = UInt64(CivilTime.ticksPerSecond)
        let magnitude = (((days * 24 + hours) * 60 + minutes) * 60 + seconds).multipliedReportingOverflow(by: perSecond)
        guard !magnitude.overflow else { return nil }
        let (ticks, overflow) = magnitude.partialValue.addingReportingOverflow(fraction)
        guard !overflow else { return nil }
        return signed(ticks, negative: negative)
    }

    /// 1 to 9 ASCII digits below `limit`, or nil.
    private static func wholeNumber(_ text: Substring, below limit: UInt64) -> UInt64? {
        guard (1...9).contains(text.utf8.count) else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value < limit ? value : nil
    }

    /// A tick count's magnitude with its sign, when it fits: up to `Int64.max`, or one more
    /// when negative (`TimeSpan.MinValue`).
    static func signed(_ magnitude: UInt64, negative: Bool) -> Int64? {
        if negative {
            guard magnitude <= Int64.min.magnitude else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}

/// One `digits[.digits]` number of an XSD duration, read without losing precision: the whole
/// part exactly (nil past 19 digits' worth), the fraction to 18 digits (more are dropped).
private struct DecimalDigits {
    var whole: UInt64 = 0
    /// The fraction's digits as an integer over `scale` (a power of ten).
    var fraction: UInt64 = 0
    var scale: UInt64 = 1

    /// Reads from `index`, advancing it past the number; nil when there are no digits or the
    /// whole part does not fit a `UInt64`.
    init?(_ bytes: Substring.UTF8View, from index: inout Substring.UTF8View.Index) {
        var digits = 0
        while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
            let (shifted, o1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            whole = sum
            digits += 1
            index = bytes.index(after: index)
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
                if scale < 1_000_000_000_000_000_000 {
                    fraction = fraction * 10 + digit
                    scale *= 10
                }
                digits += 1
                index = bytes.index(after: index)
            }
        }
        guard digits > 0 else { return nil }
    }

    private static func digit(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }
}

/// A duration's components summed in ticks, refusing any sum past `TimeSpan`'s range.
private struct TickSum {
    private var magnitude: UInt64 = 0

    /// Adds `number` × `unit` ticks (the fraction rounded to the nearest tick); false on overflow.
    mutating func add(_ number: DecimalDigits, times unit: Int64) -> Bool {
        let unit = UInt64(unit)
        let (whole, o1) = number.whole.multipliedReportingOverflow(by: unit)
        // fraction / scale × unit, rounded half up, exactly: the product needs 128 bits.
        let product = number.fraction.multipliedFullWidth(by: unit)
        let (quotient, remainder) = number.scale.dividingFullWidth(product)
        let part = remainder >= number.scale - remainder ? quotient + 1 : quotient
        let (withPart, o2) = whole.addingReportingOverflow(part)
        let (sum, o3) = magnitude.addingReportingOverflow(withPart)
        guard !o1, !o2, !o3, sum <= Int64.min.magnitude else { return false }
        magnitude = sum
        return true
    }

    func ticks(negative: Bool) -> Int64? { TimeSpanValue.signed(magnitude, negative: negative) }
}
