import FoundationEssentials
import Glibc
import MapNetwork
import Platform

/// Days as a saved area keeps them ("2026-11-26"): when it was saved, and when its map's data
/// is from, found in what sources say (ISO times, HTTP dates, a planet's date in an address).
public enum ExtractDates {
    /// The day of `seconds` since 1970 (UTC).
    public static func day(of seconds: Double) -> String? {
        guard abs(seconds) < 1e11, let t = CivilCalendar.moment(seconds) else { return nil }
        return String(cFormat: "%04d-%02d-%02d", t.year, t.month, t.day)
    }

    /// The first plausible day in `text`: "2026-11-20…", an HTTP date, or eight digits
    /// 20YYMMDD (OpenFreeMap's tile addresses name their planet so: ".../20251119_001001_pt/").
    public static func day(in text: String) -> String? {
        if let t = HTTPFreshness.parseDate(text) { return day(of: t) }
        let bytes = Array(text.utf8.prefix(2048))
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at >= 0, at + n <= bytes.count else { return nil }
            var v = 0
            for b in bytes[at..<at + n] { guard b >= 0x30 && b <= 0x39 else { return nil }; v = v * 10 + Int(b - 0x30) }
            return v
        }
        func isDigit(_ at: Int) -> Bool { at >= 0 && at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        for i in bytes.indices where !isDigit(i - 1) {
            var y: Int?, m: Int?, d: Int?
            if let a = digits(i, 4), i + 10 <= bytes.count, bytes[i + 4] == 0x2D, bytes[i + 7] == 0x2D, !isDigit(i + 10) {
                (y, m, d) = (a, digits(i + 5, 2), digits(i + 8, 2))
            } else if let a = digits(i, 8), !isDigit(i + 8) {
                (y, m, d) = (a / 10_000, a / 100 % 100, a % 100)
            }
            if let y, let m, let d, (1990...2200).contains(y), (1...12).contains(m), (1...31).contains(d) {
                return String(cFormat: "%04d-%02d-%02d", y, m, d)
            }
        }
        return nil
    }

    /// "26 Nov 2026" for "2026-11-26": how the areas panel says a day (in the reader's
    /// locale's way where it has one: "26.11.2026").
    public static func spoken(_ day: String) -> String {
        let p = day.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3, (1...12).contains(p[1]) else { return day }
        if let own = Localization.date(year: p[0], month: p[1], day: p[2]) { return own }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(p[2]) \(months[p[1] - 1]) \(p[0])"
    }
}
