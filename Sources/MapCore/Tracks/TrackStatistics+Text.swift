import FoundationEssentials
import Glibc
import Platform

extension TrackStatistics {
    /// The callout's lines: distance and times, climbing and heights, speeds. A value the
    /// track cannot support is left out, never shown as zero.
    public func summary(imperial: Bool) -> [String] {
        var lines: [String] = []
        var first = Self.distanceText(distance, imperial: imperial)
        if let duration {
            first += " · " + Self.durationText(duration)
            // TRANSLATORS: after a track's total time; %@ is the time spent moving ("0:58:12").
            if let movingTime, movingTime < duration - 1 { first += " " + tr("(moving %@)", Self.durationText(movingTime)) }
        }
        lines.append(first)
        if let ascent, let descent, let minElevation, let maxElevation {
            lines.append("↑ " + Self.heightText(ascent, imperial: imperial) + "  ↓ " + Self.heightText(descent, imperial: imperial)
                         + " · " + Self.heightText(minElevation, imperial: imperial, unit: false) + "–" + Self.heightText(maxElevation, imperial: imperial))
        }
        if let averageSpeed {
            // TRANSLATORS: a track's average speed; %@ is a speed ("12.4 km/h").
            var s = tr("average %@", Self.speedText(averageSpeed, imperial: imperial))
            // TRANSLATORS: a track's highest speed; %@ is a speed ("31.0 km/h").
            if let maxSpeed { s += " · " + tr("max %@", Self.speedText(maxSpeed, imperial: imperial)) }
            lines.append(s)
        }
        return lines
    }

    /// "850 m", "4.27 km", "42.3 km", "312 km"; miles and feet in imperial. The number is
    /// written in the reader's way ("4,27 km"), the unit in their language.
    public static func distanceText(_ metres: Double, imperial: Bool) -> String {
        if imperial {
            let miles = metres / 1609.344
            // TRANSLATORS: a distance in feet; %@ is the number ("1,230").
            if miles < 0.1 { return tr("%@ ft", grouped(metres * 3.28084)) }
            // TRANSLATORS: a distance in miles; %@ is the number ("4.27").
            return tr("%@ mi", decimal(miles))
        }
        // TRANSLATORS: a distance in metres; %@ is the number ("850").
        if metres < 1000 { return tr("%@ m", grouped(metres)) }
        // TRANSLATORS: a distance in kilometres; %@ is the number ("4.27").
        return tr("%@ km", decimal(metres / 1000))
    }

    /// "0:42", "1:05:09" (hours:minutes:seconds, minutes:seconds under an hour).
    public static func durationText(_ seconds: Double) -> String {
        let s = Int(saturating: seconds.rounded())
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(r))" : "\(m):\(two(r))"
    }

    public static func heightText(_ metres: Double, imperial: Bool, unit: Bool = true) -> String {
        let value = grouped(imperial ? metres * 3.28084 : metres)
        guard unit else { return value }
        // TRANSLATORS: a height in feet or metres; %@ is the number ("1,234").
        return imperial ? tr("%@ ft", value) : tr("%@ m", value)
    }

    public static func speedText(_ metresPerSecond: Double, imperial: Bool) -> String {
        let value = decimal(metresPerSecond * (imperial ? 2.236936 : 3.6))
        // TRANSLATORS: a speed in miles or kilometres an hour; %@ is the number ("12.4").
        return imperial ? tr("%@ mph", value) : tr("%@ km/h", value)
    }

    /// Three significant figures for small values, one decimal up to 100, whole above; in
    /// the reader's way of writing numbers ("4,27").
    static func decimal(_ v: Double) -> String { Localization.numbers.localized(englishDecimal(v)) }

    /// `decimal` as English writes it: "4.27", "1,230".
    static func englishDecimal(_ v: Double) -> String {
        guard v.isFinite else { return "–" }
        if v >= 100 { return englishGrouped(v) }
        let places = v < 10 ? 2 : 1
        let scale = places == 2 ? 100.0 : 10.0
        let n = Int(saturating: (v * scale).rounded())
        let whole = n / Int(saturating: scale), frac = n % Int(saturating: scale)
        let fracText = places == 2 && frac < 10 ? "0\(frac)" : "\(frac)"
        return "\(whole).\(fracText)"
    }

    /// A whole number with thousands separated, as the reader writes them: "1,230" in
    /// English, "1 230" or "1.230" elsewhere.
    public static func grouped(_ v: Double) -> String { Localization.numbers.localized(englishGrouped(v)) }

    /// `grouped` as English writes it: thousands separated by commas, "1,230".
    static func englishGrouped(_ v: Double) -> String {
        // Beyond any real distance or height (a file's <ele>1e20</ele>): a dash.
        guard v.isFinite, abs(v) < 1e12 else { return "–" }
        let n = Int(saturating: v.rounded())
        // (The magnitude, not abs: a file's -1e25 saturates to Int.min, whose abs traps.)
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
