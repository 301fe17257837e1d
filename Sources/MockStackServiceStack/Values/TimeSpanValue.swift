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
                var fraction = padded(Int(remaining % perSecond), 7)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                if !fraction.isEmpty { text += "." + fraction }
                text += "S"
            }
        }
        return text
    }

    private static func parseXSD(_ text: Substring) -> Int64? {
        var rest = text
        let negative = rest.hasPrefix("-")
        if negative { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total: Double = 0
        var inTime = false
        var number = ""
        var sawComponent = false
        for character in rest {
            switch character {
            case "T": inTime = true
            case "0"..."9", ".": number.append(character)
            default:
                guard let value = Double(number) else { return nil }
                let seconds: Double
                switch (character, inTime) {
                case ("Y", false): seconds = 365 * 86_400
                case ("M", false): seconds = 30 * 86_400
                case ("W", false): seconds = 7 * 86_400
                case ("D", false): seconds = 86_400
                case ("H", true): seconds = 3_600
                case ("M", true): seconds = 60
                case ("S", true): seconds = 1
                default: return nil
                }
                total += value * seconds
                number = ""
                sawComponent = true
            }
        }
        guard sawComponent, number.isEmpty, total < 9e11 else { return nil }
        let ticks = Int64((total * Double(CivilTime.ticksPerSecond)).rounded())
        return negative ? -ticks : ticks
    }

    private static func parseConstant(_ text: Substring) -> Int64? {
        var rest = text
        let negative = rest.hasPrefix("-")
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var days: Int64 = 0
        var hourText = parts[0]
        if let dot = hourText.firstIndex(of: ".") {
            // TimeSpan.MaxValue is 10,675,199 days; more would overflow the ticks.
            guard let d = Int64(hourText[..<dot]), d <= 10_675_199 else { return nil }
            days = d
            hourText = hourText[hourText.index(after: dot)...]
        }
        guard let hours = Int64(hourText), let minutes = Int64(parts[1]), hours < 24, minutes < 60 else { return nil }
        var seconds: Double = 0
        if parts.count == 3 {
            guard let value = Double(parts[2]), value < 60, !parts[2].contains("e") else { return nil }
            seconds = value
        }
        let whole = ((days * 24 + hours) * 60 + minutes) * 60
        let ticks = whole * CivilTime.ticksPerSecond + Int64((seconds * Double(CivilTime.ticksPerSecond)).rounded())
        return negative ? -ticks : ticks
    }
}
