import Foundation
import MapCore
import MapGeometry
import Testing

/// Clicking a track: which track and point a click finds, and what its callout says.
struct TrackSelectionTests {
    let size = ScreenSize(width: 800, height: 600)

    /// A route east along 46° N, 7.0° to 7.1° E, 101 points, one a second at 10 m/s.
    func file(_ name: String, lat: Double = 46, timed: Bool = true) -> TrackFile {
        var p = TrackPoints()
        for k in 0...100 { p.append(latitude: lat, longitude: 7 + Double(k) * 0.001, elevation: Float(500 + k), time: timed ? Double(k) * 7.7 : .nan) }
        var track = Track(kind: .track, segments: [0..<101], points: p)
        track.name = name
        let line = TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[1]))
        return TrackFile(path: "/rides/\(name).gpx", lines: [line])
    }

    @Test func aClickOnALineSelectsItsNearestPointAndAClickBesideItNothing() throws {
        var layer = TracksLayer()
        layer.add(file("north", lat: 46.01))
        layer.add(file("south"))
        let camera = Camera(center: Coordinate(latitude: 46.005, longitude: 7.05), zoom: 14, viewportSize: size)
        // On the southern line at 7.0305° E: its point 30 or 31.
        let on = camera.screenPoint(for: Coordinate(latitude: 46, longitude: 7.0305))
        let hit = try #require(layer.hit(at: on, camera: camera))
        #expect(hit.fileID == layer.files[1].id && hit.line == 0 && (hit.point == 30 || hit.point == 31))
        // Four points off the line (its half width is 3.5 points): still it.
        #expect(layer.hit(at: ScreenPoint(x: on.x, y: on.y + 4), camera: camera)?.fileID == layer.files[1].id)
        // Twenty points off: nothing; nor beyond the line's end.
        #expect(layer.hit(at: ScreenPoint(x: on.x, y: on.y + 20), camera: camera) == nil)
        #expect(layer.hit(at: camera.screenPoint(for: Coordinate(latitude: 46, longitude: 7.104)), camera: camera) == nil)
        // Select, select the other, click beside: cleared. A hidden file cannot be clicked.
        var changed = layer.select(at: on, camera: camera)
        #expect(changed && layer.selectedLine?.file.name == "south.gpx")
        changed = layer.select(at: on, camera: camera)
        #expect(!changed)
        changed = layer.select(at: camera.screenPoint(for: Coordinate(latitude: 46.01, longitude: 7.05)), camera: camera)
        #expect(changed && layer.selectedLine?.file.name == "north.gpx")
        changed = layer.select(at: ScreenPoint(x: 5, y: 5), camera: camera)
        #expect(changed && layer.selection == nil)
        layer.setHidden(true, at: 1)
        #expect(layer.hit(at: on, camera: camera) == nil)
    }

    @Test func theCalloutNamesTheTrackAndItsStatisticsOnceTheyAreIn() throws {
        var layer = TracksLayer()
        layer.add(file("Morning ride"))
        let camera = Camera(center: Coordinate(latitude: 46, longitude: 7.05), zoom: 14, viewportSize: size)
        layer.select(at: camera.screenPoint(for: Coordinate(latitude: 46, longitude: 7.05)), camera: camera)
        let (f, line, _) = try #require(layer.selectedLine)
        #expect(layer.calloutText(f, line) == "Morning ride\nmeasuring…")
        layer.setDetails([TrackDetails(line)], forFile: f.id)
        let (f2, line2, _) = try #require(layer.selectedLine)
        let text = layer.calloutText(f2, line2).split(separator: "\n").map(String.init)
        // 0.1° of longitude at 46° N: 7.72 km, in 770 s (12:50), climbing 100 m.
        #expect(text[0] == "Morning ride")
        #expect(text[1] == "7.72 km · 12:50", "\(text)")
        #expect(text[2] == "↑ 100 m  ↓ 0 m · 500–600 m", "\(text)")
        #expect(text[3] == "average 36.1 km/h · max 36.1 km/h", "\(text)")
    }

    @Test func numbersAsTheCalloutWritesThem() {
        let table: [(Double, Bool, String)] = [
            (850, false, "850 m"), (4_270, false, "4.27 km"), (42_345, false, "42.3 km"), (312_400, false, "312 km"),
            (1_234_567, false, "1,235 km"), (100, true, "328 ft"), (16_093.44, true, "10.0 mi"), (1_609.344, true, "1.00 mi"),
        ]
        for (metres, imperial, text) in table { #expect(TrackStatistics.distanceText(metres, imperial: imperial) == text, "\(metres)") }
        #expect(TrackStatistics.durationText(42) == "0:42" && TrackStatistics.durationText(3909) == "1:05:09")
        #expect(TrackStatistics.durationText(.nan) == "0:00")
        #expect(TrackStatistics.heightText(2130.4, imperial: false) == "2,130 m" && TrackStatistics.heightText(1000, imperial: true) == "3,281 ft")
        #expect(TrackStatistics.speedText(10, imperial: false) == "36.0 km/h" && TrackStatistics.speedText(10, imperial: true) == "22.4 mph")
        // What a track cannot support is left out.
        var p = TrackPoints()
        for k in 0..<10 { p.append(latitude: 46, longitude: 7 + Double(k) * 0.001, elevation: .nan, time: .nan) }
        let plain = TrackStatistics(Track(kind: .route, segments: [0..<10], points: p)).summary(imperial: false)
        #expect(plain == ["695 m"], "\(plain)")
    }
}
