import FoundationEssentials
import Glibc
import Platform

/// What the callout of a track says: distance, times, climbing and speeds. Values the file
/// cannot support (no times, no elevations) are nil, never zero pretending to be a measure.
public struct TrackStatistics: Sendable, Equatable {
    /// Metres along the track, segment by segment (no jump across a gap between segments).
    public var distance: Double
    /// Seconds from the first time to the last.
    public var duration: Double?
    /// Seconds spent moving faster than `movingSpeed`.
    public var movingTime: Double?
    /// Metres climbed and descended, counted only once a change passes `climbThreshold`, so
    /// that GPS noise on flat ground adds nothing.
    public var ascent: Double?
    public var descent: Double?
    public var minElevation: Double?
    public var maxElevation: Double?
    /// Metres per second: distance over moving time, and the fastest stretch of at least
    /// `speedWindow` seconds (one jumpy fix cannot make a record).
    public var averageSpeed: Double?
    public var maxSpeed: Double?

    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8
    public static let movingSpeed = 0.5
    public static let climbThreshold = 5.0
    public static let speedWindow = 10.0

    /// Great-circle distance in metres (haversine).
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// Metres along the track at each point, haversine, segment after segment with no jump
    /// across the gap between two: what statistics, speeds and the profile all measure by.
    public static func distancesAlong(_ track: Track) -> [Double] {
        let p = track.points
        var along = [Double](repeating: 0, count: p.count)
        var total = 0.0
        for s in track.segments where !s.isEmpty {
            along[s.lowerBound] = total
            for i in (s.lowerBound + 1)..<s.upperBound {
                total += distance(p.latitude[i - 1], p.longitude[i - 1], p.latitude[i], p.longitude[i])
                along[i] = total
            }
        }
        return along
    }

    public init(_ track: Track) { self.init(track, along: Self.distancesAlong(track)) }

    /// `along`: the track's `distancesAlong`, when the caller has it already.
    public init(_ track: Track, along: [Double]) {
        let p = track.points
        distance = 0
        var moving = 0.0, sawTime = false, firstTime = Double.infinity, lastTime = -Double.infinity
        var up = 0.0, down = 0.0, sawElevation = false, low = Double.infinity, high = -Double.infinity
        var fastest: Double?
        for segment in track.segments where !segment.isEmpty {
            var reference = Double.nan
            for i in segment {
                if i > segment.lowerBound {
                    let d = along[i] - along[i - 1]
                    distance += d
                    let dt = p.time[i] - p.time[i - 1]
                    if dt > 0, d / dt > Self.movingSpeed { moving += dt }
                }
                let t = p.time[i]
                if t.isFinite { sawTime = true; firstTime = min(firstTime, t); lastTime = max(lastTime, t) }
                let e = Double(p.elevation[i])
                if e.isFinite {
                    sawElevation = true
                    low = min(low, e); high = max(high, e)
                    // Hysteresis: climbing counts once it has passed the threshold.
                    if reference.isNaN { reference = e } else if e - reference >= Self.climbThreshold {
                        up += e - reference; reference = e
                    } else if reference - e >= Self.climbThreshold {
                        down += reference - e; reference = e
                    }
                }
            }
            // The fastest stretch: over windows of at least `speedWindow` seconds, the straight
            // distance between their ends over their time, and of three windows in a row the
            // middle value, so that one fix thrown far off (which ends one window and starts
            // another) is no record.
            var speeds: [Double] = []
            var j = 0
            for k in 0..<segment.count {
                let a = segment.lowerBound + k
                guard p.time[a].isFinite else { continue }
                if j < k { j = k }
                while j < segment.count, !(p.time[segment.lowerBound + j] - p.time[a] >= Self.speedWindow) { j += 1 }
                guard j < segment.count else { break }
                let b = segment.lowerBound + j
                let dt = p.time[b] - p.time[a]
                speeds.append(Self.distance(p.latitude[a], p.longitude[a], p.latitude[b], p.longitude[b]) / dt)
            }
            if speeds.count >= 3 {
                for k in 1..<(speeds.count - 1) {
                    let m = max(min(speeds[k - 1], speeds[k]), min(max(speeds[k - 1], speeds[k]), speeds[k + 1]))
                    fastest = max(fastest ?? 0, m)
                }
            } else if let v = speeds.max() {
                fastest = max(fastest ?? 0, v)
            }
        }
        if sawTime {
            duration = lastTime - firstTime
            movingTime = moving
            averageSpeed = moving > 0 ? distance / moving : nil
            maxSpeed = fastest
        }
        if sawElevation {
            ascent = up; descent = down
            minElevation = low; maxElevation = high
        }
    }
}
