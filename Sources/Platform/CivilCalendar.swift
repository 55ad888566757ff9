/// The proleptic Gregorian calendar in UTC, as days and seconds since 1970-01-01, both ways
/// (Howard Hinnant's `days_from_civil` and `civil_from_days`): the one calendar the readers,
/// writers and HTTP dates share, free of the C library's time zone state and of `time_t`'s
/// range. Callers bound the years they accept; within ±1e9 years nothing overflows.
public enum CivilCalendar {
    /// A moment as a calendar shows it in UTC.
    public struct Moment: Equatable, Sendable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

        public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        }
    }

    /// Days from 1970-01-01 to year-month-day (month 1…12; a day past the month's end runs on).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Seconds since 1970 of a UTC wall-clock time.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Double {
        Double(days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60) + second
    }

    /// The UTC moment of `seconds` since 1970 (the fraction dropped); nil past ±1e13 s.
    public static func moment(_ seconds: Double) -> Moment? {
        guard seconds.isFinite, abs(seconds) < 1e13 else { return nil }
        let whole = Int(saturating: seconds.rounded(.down))
        let d = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let s = whole - d * 86_400
        let (y, m, dd) = date(days: d)
        return Moment(year: y, month: m, day: dd, hour: s / 3600, minute: s / 60 % 60, second: s % 60)
    }
}
