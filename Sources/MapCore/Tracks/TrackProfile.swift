import FoundationEssentials
import Glibc
import Platform

/// A track's elevation (and speed) over distance, sampled at `columns` even steps of
/// distance: what the profile panel draws, worked out once when the track is read. Small
/// (a few kilobytes whatever the track's length), so the panel's sprite can carry it.
public struct TrackProfile: Sendable, Hashable {
    public static let columns = 480

    /// Metres along the track (segments joined, no jump across a gap).
    public let distance: Double
    /// Each column's elevation (metres) and speed (m/s), NaN where unknown; speed is empty
    /// when the track has no times.
    public let elevation: [Float]
    public let speed: [Float]
    /// The point of the track at each column (non-decreasing).
    public let point: [Int]
    public let lowest: Double, highest: Double
    public let fastest: Double
    /// Each column's heart rate, cadence and power (averaged over its points that have one),
    /// NaN where none; empty when the track has none.
    public let heartRate: [Float], cadence: [Float], power: [Float]

    /// Nil for a track without elevations, or without length. `speed`: each point's (or
    /// none); `along`: the track's `TrackStatistics.distancesAlong`.
    public init?(_ track: Track, speed pointSpeed: [Float], along: [Double]) {
        let p = track.points
        guard p.count >= 2, along.count == p.count, p.elevation.contains(where: \.isFinite) else { return nil }
        let total = along.max() ?? 0
        guard total > 0 else { return nil }
        let n = Self.columns
        let timed = pointSpeed.count == p.count
        var elevation = [Float](repeating: .nan, count: n), speed = [Float](repeating: .nan, count: timed ? n : 0)
        var point = [Int](repeating: 0, count: n)
        let columns = [p.heartRate, p.cadence, p.power].map { $0.count == p.count && $0.contains { $0 > 0 } ? $0 : [] }
        var sensors = columns.map { [Float](repeating: .nan, count: $0.isEmpty ? 0 : n) }
        var i = 0
        for c in 0..<n {
            // The points in this column's stretch of distance: elevation and speed averaged.
            let end = total * Double(c + 1) / Double(n)
            let first = i
            var e = 0.0, ne = 0, v = 0.0, nv = 0
            var sums = [0.0, 0.0, 0.0], counts = [0, 0, 0]
            while i < p.count, along[i] <= end || c == n - 1 {
                let ei = Double(p.elevation[i])
                if ei.isFinite { e += ei; ne += 1 }
                if timed, pointSpeed[i].isFinite { v += Double(pointSpeed[i]); nv += 1 }
                for s in 0..<3 where !columns[s].isEmpty && columns[s][i] > 0 { sums[s] += Double(columns[s][i]); counts[s] += 1 }
                i += 1
            }
            for s in 0..<3 where counts[s] > 0 { sensors[s][c] = Float(sums[s] / Double(counts[s])) }
            point[c] = min(first, p.count - 1)
            if ne > 0 { elevation[c] = Float(e / Double(ne)) }
            if nv > 0 { speed[c] = Float(v / Double(nv)) }
        }
        // Columns without a point of their own (a long straight edge) take their neighbours'.
        for c in 1..<n where elevation[c].isNaN { elevation[c] = elevation[c - 1] }
        for c in stride(from: n - 2, through: 0, by: -1) where elevation[c].isNaN { elevation[c] = elevation[c + 1] }
        if !speed.isEmpty { for c in 1..<n where speed[c].isNaN { speed[c] = speed[c - 1] } }
        distance = total
        self.elevation = elevation
        self.speed = speed
        self.point = point
        let finite = elevation.filter(\.isFinite).map(Double.init)
        lowest = finite.min() ?? 0
        highest = finite.max() ?? 0
        fastest = Double(speed.filter(\.isFinite).max() ?? 0)
        (heartRate, cadence, power) = (sensors[0], sensors[1], sensors[2])
    }

    /// What the dashed line shows when the tracks are coloured by `mode`: that sensor where
    /// the track has it, else speed (empty when it has neither); and the mode it is.
    public func dashed(for mode: TrackColorMode) -> (values: [Float], mode: TrackColorMode) {
        switch mode {
        case .heartRate where !heartRate.isEmpty: return (heartRate, .heartRate)
        case .cadence where !cadence.isEmpty: return (cadence, .cadence)
        case .power where !power.isEmpty: return (power, .power)
        default: return (speed, .speed)
        }
    }

    /// The column showing point `index` of the track.
    public func column(ofPoint index: Int) -> Int {
        // The last column that starts at or before the point.
        var lo = 0, hi = point.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if point[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
