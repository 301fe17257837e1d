/// Calendar arithmetic on the proleptic Gregorian calendar, in UTC, for formatting and parsing
/// .NET dates without Foundation's calendars (and so without time zones or locales).
struct CivilTime: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 100-ns ticks within the second (0..<10_000_000).
    var fraction: Int

    static let ticksPerSecond: Int64 = 10_000_000
    static let ticksPerDay: Int64 = 86_400 * ticksPerSecond

    /// The civil time `ticks` (100 ns since 1970-01-01T00:00:00) falls on.
    init(ticksSinceEpoch ticks: Int64) {
        let days = ticks.floorDivided(by: Self.ticksPerDay)
        let withinDay = ticks - days * Self.ticksPerDay
        (year, month, day) = Self.civil(fromDays: days)
        let seconds = Int(withinDay / Self.ticksPerSecond)
        hour = seconds / 3600
        minute = seconds / 60 % 60
        second = seconds % 60
        fraction = Int(withinDay % Self.ticksPerSecond)
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, fraction: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.fraction) = (
            year, month, day, hour, minute, second, fraction
        )
    }

    /// Whether the fields name a real date and time of day.
    var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month)
            && (1...Self.daysIn(month: month, year: year)).contains(day)
            && (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
            && (0..<10_000_000).contains(fraction)
    }

    var ticksSinceEpoch: Int64 {
        let days = Self.days(fromCivil: year, month, day)
        let seconds = Int64(hour * 3600 + minute * 60 + second)
        return days * Self.ticksPerDay + seconds * Self.ticksPerSecond + Int64(fraction)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (dates before 1970 have negative ticks).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
