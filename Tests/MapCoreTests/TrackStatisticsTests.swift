import Foundation
import MapCore
import Testing
import TestSupport

struct TrackStatisticsTests {
    /// A track of one segment from (lat, lon, ele, time) rows.
    func track(_ rows: [(Double, Double, Float, Double)], segments: [Range<Int>]? = nil) -> Track {
        var p = TrackPoints()
        for r in rows { p.append(latitude: r.0, longitude: r.1, elevation: r.2, time: r.3) }
        return Track(kind: .track, segments: segments ?? [0..<rows.count], points: p)
    }

    @Test func distancesAgainstHandComputedValues() {
        // One degree of the equator, and of a meridian, on a sphere of radius 6,371,008.8 m.
        let degree = 6_371_008.8 * Double.pi / 180
        #expect(abs(TrackStatistics.distance(0, 0, 0, 1) - degree) < 1e-6)
        #expect(abs(TrackStatistics.distance(10, 20, 11, 20) - degree) < 1e-6)
        // A degree of longitude at 60° N is half as long.
        #expect(abs(TrackStatistics.distance(60, 0, 60, 1) - degree / 2) < 2)
        // Antipodes: half the circumference.
        #expect(abs(TrackStatistics.distance(0, 0, 0, 180) - degree * 180) < 1e-6)
    }

    @Test func timesSpeedsAndAGapBetweenSegments() {
        // 0.001° of longitude at the equator is 111.195 m; one fix every 10 s, then a stop.
        let step = 6_371_008.8 * Double.pi / 180 * 0.001
        let rows: [(Double, Double, Float, Double)] = [
            (0, 0, .nan, 0), (0, 0.001, .nan, 10), (0, 0.002, .nan, 20), (0, 0.002, .nan, 80),
            // A second segment far away: the jump between segments is not distance.
            (10, 10, .nan, 100), (10, 10.001, .nan, 110),
        ]
        let s = TrackStatistics(track(rows, segments: [0..<4, 4..<6]))
        let segmentB = TrackStatistics.distance(10, 10, 10, 10.001)
        #expect(abs(s.distance - (2 * step + segmentB)) < 1e-6)
        #expect(s.duration == 110)
        #expect(s.movingTime == 30) // the 60 s stop does not count
        #expect(abs(s.averageSpeed! - s.distance / 30) < 1e-9)
        #expect(abs(s.maxSpeed! - step / 10) < 1e-6)
        #expect(s.ascent == nil && s.minElevation == nil)
    }

    /// Noise of ±2 m, the same for every run of the test (seeded), over several seeds.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func noiseOnFlatGroundIsNoClimb(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        // 200 points around 500 m: nothing climbed.
        let flat = (0..<200).map { i in (0.0, Double(i) * 0.0001, Float(500 + Double.random(in: -2...2, using: &rng)), Double(i)) }
        let s = TrackStatistics(track(flat))
        #expect(s.ascent == 0 && s.descent == 0)
        #expect(s.minElevation! >= 498 && s.maxElevation! <= 502)
        // A 100 m climb with the same noise, then 40 m down: counted within the noise.
        let hill = (0..<300).map { i -> (Double, Double, Float, Double) in
            let e = i < 200 ? 500 + Double(i) / 2 : 600 - Double(i - 200) * 0.4
            return (0, Double(i) * 0.0001, Float(e + Double.random(in: -2...2, using: &rng)), Double(i))
        }
        let h = TrackStatistics(track(hill))
        #expect(abs(h.ascent! - 100) < 8, "\(h.ascent!)")
        #expect(abs(h.descent! - 40) < 8, "\(h.descent!)")
        // Extremes are the raw fixes: within the noise of the true 500 m and 600 m.
        #expect(abs(h.minElevation! - 500) <= 2 && abs(h.maxElevation! - 600) <= 2.5)
    }

    @Test func oneJumpyFixIsNoSpeedRecord() {
        // Walking at ~1.1 m/s, one fix thrown 1 km off for a second.
        var rows = (0..<60).map { i in (0.0, Double(i) * 0.00001, Float.nan, Double(i)) }
        rows[30].1 += 0.009
        let s = TrackStatistics(track(rows))
        // ~1.1 m/s, not the 100 m/s the thrown fix implies over its 10 s windows.
        #expect(abs(s.maxSpeed! - TrackStatistics.distance(0, 0, 0, 0.0001) / 10) < 0.05, "\(s.maxSpeed!)")
    }
}
