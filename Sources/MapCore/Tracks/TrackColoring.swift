import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// What a track's colour shows: the file's colour, or each stretch's speed, elevation, heart
/// rate, cadence or power on a ramp (key C). GPXSee declined this, its most-asked feature.
public enum TrackColorMode: String, Sendable, CaseIterable {
    case plain, speed, elevation
    case heartRate = "heart-rate", cadence, power

    public var title: String {
        switch self {
        // TRANSLATORS: what the tracks' colours show (key C), the legend's title.
        case .plain: return trc("track colours", "Plain")
        case .speed: return trc("track colours", "Speed")
        case .elevation: return trc("track colours", "Elevation")
        case .heartRate: return trc("track colours", "Heart rate")
        case .cadence: return trc("track colours", "Cadence")
        case .power: return trc("track colours", "Power")
        }
    }
}

/// The colours of a mode's values, from `low` (blue) to `high` (red): a ramp with even steps
/// of lightness and hue, dark enough at every step to read on the light basemap.
public struct TrackColorRamp: Sendable, Hashable {
    public var mode: TrackColorMode
    /// The values at the ramp's ends (m/s, metres); values beyond take the end colours.
    public var low: Double
    public var high: Double

    public init(mode: TrackColorMode, low: Double, high: Double) {
        self.mode = mode
        self.low = low
        self.high = high
    }

    public static let stops: [Color] = [
        Color(hex: 0x2B4FD6), Color(hex: 0x0F97A8), Color(hex: 0x3FA33A),
        Color(hex: 0xC9A000), Color(hex: 0xE2601B), Color(hex: 0xB8182E),
    ]

    /// Where `value` lies on the ramp, 0…1 (NaN for an unknown value).
    public func fraction(_ value: Double) -> Double {
        guard value.isFinite else { return .nan }
        guard high > low else { return 0.5 }
        return min(max((value - low) / (high - low), 0), 1)
    }

    /// The colour at a fraction of the ramp (grey for an unknown value).
    public static func color(at f: Double) -> Color {
        guard f.isFinite else { return Color(hex: 0x8A8A8A) }
        let x = min(max(f, 0), 1) * Double(stops.count - 1)
        let i = min(Int(saturating: x), stops.count - 2), t = x - Double(i)
        let a = stops[i], b = stops[i + 1]
        return Color(r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: 1)
    }

    /// The ramp for `mode` over `lines`: from the 2nd to the 98th percentile of their values,
    /// so one spike (a GPS jump, a bad elevation) does not squeeze everything else into one
    /// colour. Nil when the lines have no such values.
    public static func fitting(_ mode: TrackColorMode, lines: [TrackLine]) -> TrackColorRamp? {
        guard mode != .plain else { return nil }
        var sample: [Double] = []
        let total = lines.reduce(0) { $0 + $1.values(for: mode).count }
        guard total > 0 else { return nil }
        // At most ~100,000 values are looked at: the percentiles do not need more.
        let step = max(1, total / 100_000)
        for line in lines {
            let v = line.values(for: mode)
            for k in stride(from: 0, to: v.count, by: step) where v[k].isFinite { sample.append(Double(v[k])) }
        }
        guard !sample.isEmpty else { return nil }
        sample.sort()
        let lo = sample[Int(saturating: Double(sample.count - 1) * 0.02)], hi = sample[Int(saturating: Double(sample.count - 1) * 0.98)]
        return TrackColorRamp(mode: mode, low: lo, high: max(hi, lo))
    }

    /// A value as the legend writes it: km/h or mph, metres or feet.
    /// Values come from files: one beyond any real speed or height (a GPX's <ele>1e20</ele>)
    /// is written as a dash, not converted (an Int of it would trap).
    public func label(_ value: Double, imperial: Bool) -> String {
        func whole(_ v: Double) -> String { v.isFinite && abs(v) < 1e9 ? "\(Int(saturating: v.rounded()))" : "—" }
        switch mode {
        case .plain: return ""
        // TRANSLATORS: a speed at an end of the legend; %@ is the number.
        case .speed: return imperial ? tr("%@ mph", whole(value * 2.236936)) : tr("%@ km/h", whole(value * 3.6))
        // TRANSLATORS: a height at an end of the legend; %@ is the number.
        case .elevation: return imperial ? tr("%@ ft", whole(value * 3.28084)) : tr("%@ m", whole(value))
        case .heartRate, .cadence, .power: return Self.sensorText(value, mode)
        }
    }

    /// A heart rate, cadence or power as written beside the profile and in the legend
    /// ("142 bpm", "88 rpm", "230 W").
    public static func sensorText(_ value: Double, _ mode: TrackColorMode) -> String {
        let v = value.isFinite && abs(value) < 1e9 ? "\(Int(saturating: value.rounded()))" : "—"
        switch mode {
        // TRANSLATORS: a heart rate; %@ is the number of beats per minute.
        case .heartRate: return tr("%@ bpm", v)
        // TRANSLATORS: a cadence; %@ is the number of revolutions (or steps) per minute.
        case .cadence: return tr("%@ rpm", v)
        // TRANSLATORS: a power; %@ is the number of watts (W, not the compass point west).
        case .power: return trc("power", "%@ W", v)
        case .plain, .speed, .elevation: return v
        }
    }
}

/// Each point's speed (m/s) over about `window` seconds around it, so that a jumpy fix does
/// not show as a burst of speed; NaN where times are missing or do not advance.
public enum TrackSpeeds {
    public static let window = 10.0

    /// `along`: the track's `TrackStatistics.distancesAlong` (differences within a segment
    /// are metres travelled).
    public static func compute(_ track: Track, along: [Double]) -> [Float] {
        let time = track.points.time
        let n = time.count
        guard n > 1, along.count == n, time.contains(where: \.isFinite) else { return [] }
        var speed = [Float](repeating: .nan, count: n)
        for s in track.segments where s.count > 1 {
            // Two pointers: the first point at most half a window before, the last at most
            // half a window after.
            var lo = s.lowerBound, hi = s.lowerBound
            for i in s where time[i].isFinite {
                while lo < i, !(time[lo].isFinite && time[lo] >= time[i] - window / 2) { lo += 1 }
                if hi < i { hi = i }
                while hi + 1 < s.upperBound, time[hi + 1].isFinite, time[hi + 1] <= time[i] + window / 2 { hi += 1 }
                let dt = time[hi] - time[lo]
                if dt > 0 { speed[i] = Float((along[hi] - along[lo]) / dt) }
            }
        }
        return speed
    }
}
