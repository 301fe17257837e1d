#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A moment a date pattern compares with (`before`, `after`, `equalToDateTime`): `now`, `now`
/// moved by a whole number of a unit (`now +3 days`, `now -90 seconds`), as WireMock writes them,
/// or a fixed instant in ISO 8601 (`2026-01-01T00:00:00Z`, `2026-01-01`, midnight UTC).
/// `now` is read when a request is matched.
public struct Moment: Sendable, Equatable, CustomStringConvertible {
    /// The calendar units an offset counts.
    public enum Unit: String, Sendable, CaseIterable {
        case seconds, minutes, hours, days, months, years
    }

    /// Where it starts: now, or a fixed instant.
    public enum Base: Sendable, Equatable {
        case now
        case instant(Date)
    }

    /// Where it is counted from.
    public var base: Base
    /// How many units from the base (negative: before it).
    public var offset: Int
    /// What the offset counts.
    public var unit: Unit
    /// The text it was read from, as given.
    public var description: String

    /// Reads `now`, `now ±N unit`, or an ISO 8601 instant or date.
    /// - Throws: a message saying what was expected.
    public init(_ text: String) throws(WireProblem) {
        description = text
        // Spaces around the words do not count (`now + 3 days`).
        let trimmed = text.split(separator: " ").joined(separator: " ")
        guard trimmed.lowercased().hasPrefix("now") else {
            guard let instant = Self.instant(trimmed) else {
                throw WireProblem(
                    field: "", message: "expected now, now +N units, or an ISO 8601 date, found '\(text)'")
            }
            base = .instant(instant)
            offset = 0
            unit = .seconds
            return
        }
        base = .now
        let rest = trimmed.dropFirst(3).filter { $0 != " " }
        guard !rest.isEmpty else {
            offset = 0
            unit = .seconds
            return
        }
        let sign = rest.first
        let digits = String(rest.dropFirst().prefix(while: { $0.isASCII && $0.isNumber }))
        let unitName = rest.dropFirst(1 + digits.count).lowercased()
        guard sign == "+" || sign == "-", let amount = Int(digits), amount <= 1_000_000,
            let unit = Unit.allCases.first(where: { $0.rawValue == unitName || $0.rawValue.dropLast() == unitName })
        else {
            throw WireProblem(
                field: "",
                message: """
                    expected now followed by +N or -N and one of \
                    \(Unit.allCases.map(\.rawValue).joined(separator: ", ")) (now +3 days), found '\(text)'
                    """)
        }
        offset = sign == "-" ? -amount : amount
        self.unit = unit
    }

    /// The moment itself, `now` being `now`.
    public func resolved(now: Date) -> Date {
        let start: Date
        switch base {
        case .now: start = now
        case .instant(let instant): start = instant
        }
        guard offset != 0 else { return start }
        var components = DateComponents()
        switch unit {
        case .seconds: components.second = offset
        case .minutes: components.minute = offset
        case .hours: components.hour = offset
        case .days: components.day = offset
        case .months: components.month = offset
        case .years: components.year = offset
        }
        return Self.utc.date(byAdding: components, to: start) ?? start
    }

    /// The Gregorian calendar in UTC, which months and days are counted in.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// An ISO 8601 instant (with or without fractions of a second, `Z` or an offset), or a date
    /// alone (midnight UTC).
    public static func instant(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    /// The date a request's value names: ISO 8601 as ``instant(_:)`` reads it, or an HTTP date
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`, as `If-Modified-Since` carries one); nil for anything else.
    public static func date(in value: String) -> Date? {
        instant(value) ?? httpDate(value)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// RFC 9110's IMF-fixdate.
    private static func httpDate(_ value: String) -> Date? {
        let words = value.split(separator: " ")
        guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT",
            let day = Int(words[1]), let month = months.firstIndex(of: words[2].lowercased()), let year = Int(words[3])
        else { return nil }
        let time = words[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return utc.date(
            from: DateComponents(
                year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2]))
    }
}
