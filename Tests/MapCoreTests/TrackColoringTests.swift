import Foundation
import MapCore
import MapGeometry
import Testing

/// Colour modes: the ramp's colours, the values it spans, each point's speed, and the
/// tracks layer cycling through the modes its tracks have values for.
struct TrackColoringTests {
    /// A ride east along 46° N: `speeds` m/s for `seconds` each, climbing 1 m a second.
    func ride(_ speeds: [(Double, Int)], times: Bool = true, elevations: Bool = true, segments: [Range<Int>]? = nil) -> TrackLine {
        var p = TrackPoints()
        var lon = 7.0, t = 1_777_622_400.0, k = 0
        let metresPerDegree = 2 * Double.pi * TrackStatistics.earthRadius / 360 * cos(46 * Double.pi / 180)
        for (speed, seconds) in speeds {
            for _ in 0..<seconds {
                p.append(latitude: 46, longitude: lon, elevation: elevations ? Float(400 + k) : .nan, time: times ? t : .nan)
                lon += speed / metresPerDegree
                t += 1
                k += 1
            }
        }
        let track = Track(kind: .track, segments: segments ?? [0..<p.count], points: p)
        return TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[0])).withDetails()
    }

    @Test func theRampsColoursAtKnownPlaces() {
        #expect(TrackColorRamp.color(at: 0) == TrackColorRamp.stops.first!)
        #expect(TrackColorRamp.color(at: 1) == TrackColorRamp.stops.last!)
        #expect(TrackColorRamp.color(at: -3) == TrackColorRamp.stops.first! && TrackColorRamp.color(at: 7) == TrackColorRamp.stops.last!)
        // Halfway between the 3rd and 4th of six stops.
        let mid = TrackColorRamp.color(at: 0.5), a = TrackColorRamp.stops[2], b = TrackColorRamp.stops[3]
        #expect(abs(mid.r - (a.r + b.r) / 2) < 1e-9 && abs(mid.g - (a.g + b.g) / 2) < 1e-9)
        #expect(TrackColorRamp.color(at: .nan) == Color(hex: 0x8A8A8A))
        let ramp = TrackColorRamp(mode: .speed, low: 2, high: 10)
        #expect(ramp.fraction(2) == 0 && ramp.fraction(6) == 0.5 && ramp.fraction(10) == 1)
        #expect(ramp.fraction(-5) == 0 && ramp.fraction(99) == 1 && ramp.fraction(.nan).isNaN)
        #expect(ramp.label(10, imperial: false) == "36 km/h" && ramp.label(10, imperial: true) == "22 mph")
        #expect(TrackColorRamp(mode: .elevation, low: 0, high: 1).label(1000, imperial: false) == "1000 m")
        #expect(TrackColorRamp(mode: .elevation, low: 0, high: 1).label(1000, imperial: true) == "3281 ft")
    }

    @Test func speedsAreMetresPerSecondOverAWindow() {
        let line = ride([(5, 120), (12, 120)])
        let s = line.speed
        #expect(s.count == 240)
        // Well inside each stretch: its speed (within 0.5 %).
        for i in [20, 60, 100] { #expect(abs(Double(s[i]) - 5) < 0.025, "at \(i): \(s[i])") }
        for i in [140, 180, 220] { #expect(abs(Double(s[i]) - 12) < 0.06, "at \(i): \(s[i])") }
        // Across the change, between the two: the window smooths it.
        #expect(s[120] > 5.5 && s[120] < 11.5)
    }

    @Test func noTimesNoSpeedsAndSegmentsDoNotBleed() {
        #expect(ride([(5, 50)], times: false).speed.isEmpty)
        #expect(ride([(5, 50)], times: false).values(for: .speed).isEmpty)
        #expect(ride([(5, 50)], elevations: false).values(for: .elevation).isEmpty)
        // Two segments: the second starts fast (a jump between them is no speed).
        let line = ride([(5, 40), (15, 40)], segments: [0..<40, 40..<80])
        #expect(abs(Double(line.speed[41]) - 15) < 0.1 && abs(Double(line.speed[38]) - 5) < 0.05)
    }

    @Test func theRampSpansTheMiddleOfTheValuesNotTheirSpikes() throws {
        var line = ride([(5, 200)])
        // Elevation 400…599 m climbing one metre a point.
        let ramp = try #require(TrackColorRamp.fitting(.elevation, lines: [line]))
        #expect(abs(ramp.low - 404) <= 1 && abs(ramp.high - 595) <= 1, "\(ramp)")
        // A spike of one point changes nothing.
        var pts = line.track.points
        pts.elevation[100] = 9000
        let spiked = Track(kind: .track, segments: [0..<200], points: pts)
        line = TrackLine(track: spiked, geometry: TrackGeometry(spiked), style: line.style).withDetails()
        #expect(TrackColorRamp.fitting(.elevation, lines: [line])!.high < 600)
        #expect(TrackColorRamp.fitting(.plain, lines: [line]) == nil)
    }

    @Test func keyCGoesThroughTheModesTheTracksHaveValuesFor() {
        var layer = TracksLayer()
        #expect(layer.cycleColorMode() == .plain) // nothing open
        layer.add(TrackFile(path: "/a.gpx", lines: [ride([(5, 60)], times: false)]))
        let r0 = layer.revision
        // No times: speed is skipped.
        #expect(layer.cycleColorMode() == .elevation && layer.ramp?.mode == .elevation && layer.revision > r0)
        #expect(layer.cycleColorMode() == .plain && layer.ramp == nil)
        layer.add(TrackFile(path: "/b.gpx", lines: [ride([(8, 60)])]))
        #expect(layer.cycleColorMode() == .speed && layer.ramp?.mode == .speed)
        #expect(layer.cycleColorMode() == .elevation)
        // Hiding what had the values refits the ramp; closing all leaves it plain.
        layer.setHidden(true, at: 1)
        #expect(layer.colorMode == .elevation && layer.ramp != nil)
        layer.close(at: 1)
        layer.close(at: 0)
        #expect(layer.colorMode == .plain && layer.ramp == nil)
    }

    /// The legend writes a value beyond any real one as a dash.
    @Test func theLegendWritesAbsurdValuesAsADash() {
        let ramp = TrackColorRamp(mode: .elevation, low: -3e25, high: 1e20)
        #expect(ramp.label(1e20, imperial: false) == "— m" && ramp.label(-3e25, imperial: true) == "— ft")
        #expect(ramp.label(.infinity, imperial: false) == "— m" && ramp.label(812.4, imperial: false) == "812 m")
        #expect(TrackColorRamp(mode: .speed, low: 0, high: 1e300).label(1e300, imperial: false) == "— km/h")
    }
}
