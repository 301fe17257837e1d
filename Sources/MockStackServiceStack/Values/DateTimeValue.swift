import MockStackCore

/// A .NET `DateTime` (or `DateTimeOffset`): an instant plus the kind that decides how it is
/// written. Parses every form clients send (docs/servicestack.md#request-binding) and writes both
/// dialects (docs/servicestack.md#serialization).
public struct DateTimeValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case utc
        /// No zone: WCF writes `-0000`, ISO writes no suffix.
        case unspecified
        /// A fixed offset from UTC, in minutes (local times and `DateTimeOffset`).
        case offset(minutes: Int)
    }

    /// The instant, in 100-ns ticks since 1970-01-01T00:00:00Z.
    public var ticks: Int64
    public var kind: Kind

    public init(ticks: Int64, kind: Kind) {
        self.ticks = ticks
        self.kind = kind
    }

    /// `DateTime.MinValue`, the default of an unset `DateTime`.
    public static let minValue = DateTimeValue(ticks: -62_135_596_800 * CivilTime.ticksPerSecond, kind: .unspecified)

    public init(millisecondsSinceEpoch ms: Int64, kind: Kind = .utc) {
        self.init(ticks: ms * 10_000, kind: kind)
    }

    public var millisecondsSinceEpoch: Int64 { ticks.floorDivided(by: 10_000) }

    /// The wall-clock time the value shows: UTC, or shifted by its offset.
    var civil: CivilTime {
        if case .offset(let minutes) = kind {
            return CivilTime(ticksSinceEpoch: ticks + Int64(minutes) * 60 * CivilTime.ticksPerSecond)
        }
        return CivilTime(ticksSinceEpoch: ticks)
    }

    // MARK: Parsing

    /// Parses `/Date(ms)/`, `/Date(ms±hhmm)/` (with or without the JSON `\` escapes) and
    /// ISO-8601 (`2001-01-01`, `2001-01-01T00:00:00.1234567Z`, `…+01:00`).
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingASCIISpace()
        // A WCF date starts with `/`, `\/` or (without its slashes) `Date(`; an ISO one with a digit.
        if let first = trimmed.utf8.first,
            first == UInt8(ascii: "/") || first == UInt8(ascii: "\\") || first == UInt8(ascii: "D"),
            let wcf = Self.parseWCF(trimmed)
        {
            self = wcf
            return
        }
        guard let iso = Self.parseISO(Array(trimmed.utf8)) else { return nil }
        self = iso
    }

    private static func parseWCF(_ text: Substring) -> DateTimeValue? {
        var body = text
        if body.hasPrefix("\\/") { body = body.dropFirst(2) } else if body.hasPrefix("/") { body = body.dropFirst() }
        guard body.hasPrefix("Date(") else { return nil }
        body = body.dropFirst(5)
        if body.hasSuffix(")\\/") {
            body = body.dropLast(3)
        } else if body.hasSuffix(")/") {
            body = body.dropLast(2)
        } else if body.hasSuffix(")") {
            body = body.dropLast()
        } else {
            return nil
        }
        var offsetText: Substring?
        if let sign = body.dropFirst().lastIndex(where: { $0 == "+" || $0 == "-" }) {
            offsetText = body[sign...]
            body = body[..<sign]
        }
        // .NET's DateTime range: larger values are refused rather than overflowing the ticks.
        guard let ms = Int64(body), (-62_135_596_800_000...253_402_300_799_999).contains(ms) else { return nil }
        guard let offsetText else { return DateTimeValue(millisecondsSinceEpoch: ms, kind: .utc) }
        // `±hhmm`, four digits, at most 14 hours (.NET's offset range).
        let digits = Array(offsetText.utf8.dropFirst())
        guard digits.count == 4, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard value % 100 < 60, value <= 1400 else { return nil }
        let minutes = (value / 100 * 60 + value % 100) * (offsetText.first == "-" ? -1 : 1)
        // `-0000` is how ServiceStack.Text writes an unspecified kind; `+0000` an explicit UTC offset.
        if minutes == 0 {
            return DateTimeValue(
                millisecondsSinceEpoch: ms, kind: offsetText.first == "-" ? .unspecified : .offset(minutes: 0))
        }
        let date = DateTimeValue(millisecondsSinceEpoch: ms, kind: .offset(minutes: minutes))
        // The wall-clock time it shows must be a DateTime too (year 1 to 9999).
        return isInRange(date.ticks + Int64(minutes) * 60 * CivilTime.ticksPerSecond) ? date : nil
    }

    /// The ticks of `DateTime.MaxValue` (9999-12-31T23:59:59.9999999), since 1970.
    static let maxTicks: Int64 = 253_402_300_800 * CivilTime.ticksPerSecond - 1

    /// Whether an instant (or a wall-clock time) lies within .NET's `DateTime` range.
    static func isInRange(_ ticks: Int64) -> Bool {
        (minValue.ticks...maxTicks).contains(ticks)
    }

    private static func parseISO(_ bytes: [UInt8]) -> DateTimeValue? {
        var scanner = DigitScanner(bytes: bytes)
        guard let year = scanner.digits(4), scanner.consume("-"), let month = scanner.digits(2), scanner.consume("-"),
            let day = scanner.digits(2)
        else { return nil }
        var time = CivilTime(year: year, month: month, day: day)
        var kind = DateTimeValue.Kind.unspecified
        if scanner.consume("T") || scanner.consume("t") || scanner.consume(" ") {
            guard let hour = scanner.digits(2), scanner.consume(":"), let minute = scanner.digits(2) else { return nil }
            time.hour = hour
            time.minute = minute
            if scanner.consume(":") {
                guard let second = scanner.digits(2) else { return nil }
                time.second = second
                if scanner.consume(".") || scanner.consume(",") {
                    var digits = 0
                    var fraction = 0
                    while let digit = scanner.digit() {
                        if digits < 7 { fraction = fraction * 10 + digit }
                        digits += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in min(digits, 7)..<7 { fraction *= 10 }
                    time.fraction = fraction
                }
            }
            if scanner.consume("Z") || scanner.consume("z") {
                kind = .utc
            } else if let sign = scanner.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner.index += 1
                guard let hours = scanner.digits(2) else { return nil }
                _ = scanner.consume(":")
                // .NET's offsets reach ±14:00.
                guard let minutes = scanner.digits(2), minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
                let total = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
                kind = total == 0 ? .utc : .offset(minutes: total)
            }
        }
        guard scanner.atEnd, time.isValid else { return nil }
        var ticks = time.ticksSinceEpoch
        if case .offset(let minutes) = kind { ticks -= Int64(minutes) * 60 * CivilTime.ticksPerSecond }
        // `0001-01-01T00:00:00+01:00` is an instant before DateTime.MinValue.
        return isInRange(ticks) ? DateTimeValue(ticks: ticks, kind: kind) : nil
    }

    // MARK: Formatting

    /// ServiceStack.Text's WCF form without the JSON escapes: `/Date(978307200000)/`,
    /// `/Date(978307200000-0000)/` (unspecified), `/Date(978307200000+0100)/`.
    public var wcfText: String {
        let ms = String(millisecondsSinceEpoch)
        switch kind {
        case .utc: return "/Date(\(ms))/"
        case .unspecified: return "/Date(\(ms)-0000)/"
        case .offset(let minutes): return "/Date(\(ms)\(Self.offsetText(minutes, separator: "")))/"
        }
    }

    /// System.Text.Json's ISO-8601 round-trip form: seven fractional digits with trailing zeros
    /// trimmed, `Z` for UTC, nothing for an unspecified kind, `±hh:mm` for an offset.
    public var isoText: String {
        var bytes: [UInt8] = []
        appendISO(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``isoText``'s bytes (what a response writes, without building a string).
    public func appendISO(to out: inout [UInt8]) {
        let time = civil
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            // A year past 9999 cannot occur (DateTime's range), so the width is exact.
            while divisor > 0 {
                out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10))
                divisor /= 10
            }
        }
        digits(time.year, 4)
        out.append(UInt8(ascii: "-"))
        digits(time.month, 2)
        out.append(UInt8(ascii: "-"))
        digits(time.day, 2)
        out.append(UInt8(ascii: "T"))
        digits(time.hour, 2)
        out.append(UInt8(ascii: ":"))
        digits(time.minute, 2)
        out.append(UInt8(ascii: ":"))
        digits(time.second, 2)
        if time.fraction != 0 {
            var fraction = time.fraction
            var width = 7
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            out.append(UInt8(ascii: "."))
            digits(fraction, width)
        }
        switch kind {
        case .utc: out.append(UInt8(ascii: "Z"))
        case .unspecified: break
        case .offset(let minutes): out.append(contentsOf: Self.offsetText(minutes, separator: ":").utf8)
        }
    }

    /// .NET's default `ToString()` in the invariant-US style: `11/21/2025 10:15:03 PM`.
    public var dotNetDefaultText: String {
        let time = civil
        let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func digits(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<max(width, String(value).utf8.count) { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(time.month, width: 1)
        text.append(UInt8(ascii: "/"))
        digits(time.day, width: 1)
        text.append(UInt8(ascii: "/"))
        digits(time.year, width: 4)
        text.append(UInt8(ascii: " "))
        digits(hour12, width: 1)
        text.append(UInt8(ascii: ":"))
        digits(time.minute, width: 2)
        text.append(UInt8(ascii: ":"))
        digits(time.second, width: 2)
        text += (time.hour < 12 ? " AM" : " PM").utf8
        return String(decoding: text, as: UTF8.self)
    }

    private static func offsetText(_ minutes: Int, separator: String) -> String {
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + String(zeroPadded: magnitude / 60, width: 2) + separator
            + String(zeroPadded: magnitude % 60, width: 2)
    }
}

/// Reads fixed-width ASCII digits and punctuation from a byte array.
struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func digit() -> Int? {
        guard let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        index += 1
        return Int(byte - UInt8(ascii: "0"))
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
