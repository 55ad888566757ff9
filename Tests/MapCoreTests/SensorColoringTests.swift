import Foundation
import MapCore
import MapGeometry
import Testing

/// Heart rate, cadence and power, as sports watches and bike computers record them: colour
/// modes beside speed and elevation, their ramps and legends, and the profile's dashed line
/// and readout.
struct SensorColoringTests {
    /// A ride east along 46° N, 5 m/s, one point a second: heart rate climbing 100 → 159,
    /// cadence 80 throughout but for a stop (0: not pedalling), power on the second half only.
    func ride() -> TrackLine {
        var p = TrackPoints()
        let metresPerDegree = 2 * Double.pi * TrackStatistics.earthRadius / 360 * cos(46 * Double.pi / 180)
        for k in 0..<60 {
            p.append(latitude: 46, longitude: 7 + Double(k) * 5 / metresPerDegree, elevation: Float(400 + k), time: 1_777_622_400 + Double(k),
                     heartRate: UInt16(100 + k), cadence: (20..<25).contains(k) ? 0 : 80, power: k >= 30 ? 200 + UInt16(k) : 0,
                     temperature: 21.5)
        }
        p.finish()
        let track = Track(kind: .track, segments: [0..<p.count], points: p)
        return TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[0])).withDetails()
    }

    @Test func sensorsAreColourModesWithTheirOwnUnits() throws {
        let line = ride()
        let hr = line.values(for: .heartRate), cad = line.values(for: .cadence), power = line.values(for: .power)
        #expect(hr.count == 60 && hr[0] == 100 && hr[59] == 159)
        // No reading (0) is no value, not a zero on the ramp.
        #expect(cad[22].isNaN && cad[0] == 80)
        #expect(power[0].isNaN && power[45] == 245)
        let ramp = try #require(TrackColorRamp.fitting(.heartRate, lines: [line]))
        #expect(ramp.low >= 100 && ramp.high <= 159 && ramp.low < ramp.high)
        #expect(ramp.label(142, imperial: false) == "142 bpm")
        #expect(TrackColorRamp(mode: .cadence, low: 0, high: 1).label(88.4, imperial: true) == "88 rpm")
        #expect(TrackColorRamp(mode: .power, low: 0, high: 1).label(230, imperial: false) == "230 W")
        // A track without them has no such modes: C passes them by.
        var plain = TrackPoints()
        plain.append(latitude: 46, longitude: 7, elevation: 1, time: 0)
        plain.append(latitude: 46, longitude: 7.001, elevation: 2, time: 10)
        let bare = Track(kind: .track, segments: [0..<2], points: plain)
        let bareLine = TrackLine(track: bare, geometry: TrackGeometry(bare), style: TrackStyle(color: TrackStyle.palette[0])).withDetails()
        for mode in [TrackColorMode.heartRate, .cadence, .power] { #expect(TrackColorRamp.fitting(mode, lines: [bareLine]) == nil) }
    }

    @Test func theProfileDashesTheSensorTheTracksAreColouredBy() throws {
        let profile = try #require(ride().profile)
        #expect(profile.heartRate.count == TrackProfile.columns && profile.power.count == TrackProfile.columns)
        // Averaged per column: the first column's heart rate is near the start's, the last near the end's.
        #expect(abs(Double(profile.heartRate.first!) - 100) < 2 && abs(Double(profile.heartRate.last!) - 159) < 2)
        // Power only on the second half: NaN before.
        #expect(profile.power[10].isNaN && profile.power[TrackProfile.columns - 1] > 200)
        #expect(profile.dashed(for: .heartRate).mode == .heartRate)
        #expect(profile.dashed(for: .power).mode == .power)
        #expect(profile.dashed(for: .elevation).mode == .speed && profile.dashed(for: .plain).mode == .speed)
        #expect(profile.dashed(for: .cadence).values == profile.cadence)
    }
}
