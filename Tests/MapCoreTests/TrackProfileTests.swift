import Foundation
import MapCore
import MapGeometry
import Testing

/// The elevation profile: its samples, the panel (key E), and the pointer on the graph and
/// on the track pointing at the same place.
struct TrackProfileTests {
    let size = ScreenSize(width: 800, height: 600)

    /// North along 7° E from 46°, 1,001 points 0.0001° apart (11.1 m), climbing 0.5 m each;
    /// one point a second.
    func climb(elevations: Bool = true) -> TrackLine {
        var p = TrackPoints()
        for k in 0...1000 {
            p.append(latitude: 46 + Double(k) * 0.0001, longitude: 7, elevation: elevations ? Float(1000 + Double(k) * 0.5) : .nan, time: Double(k))
        }
        let track = Track(kind: .track, segments: [0..<1001], points: p)
        return TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[0]))
    }

    @Test func aClimbsProfileIsItsElevationOverDistance() throws {
        let profile = try #require(climb().withDetails().profile)
        // 0.1° of latitude: 11.12 km.
        #expect(abs(profile.distance - 11_119.5) < 5, "\(profile.distance)")
        #expect(profile.elevation.count == TrackProfile.columns && profile.point.count == TrackProfile.columns)
        #expect(abs(profile.lowest - 1000) < 1 && abs(profile.highest - 1500) < 1)
        // Rising column by column, and each column's point about as far along.
        for c in 1..<TrackProfile.columns { #expect(profile.elevation[c] >= profile.elevation[c - 1]) }
        #expect(abs(Double(profile.point[240]) - 500) <= 3)
        for point in [0, 1, 417, 999, 1000] {
            let c = profile.column(ofPoint: point)
            #expect(profile.point[c] <= point && (c == TrackProfile.columns - 1 || profile.point[c + 1] > point), "point \(point) column \(c)")
        }
        // 11.1 m a second.
        #expect(abs(Double(profile.speed[200]) - 11.12) < 0.05)
        #expect(climb(elevations: false).withDetails().profile == nil)
    }

    @Test func keyEShowsThePanelAndTheChromeMovesAboveIt() throws {
        var layer = TracksLayer()
        var shown = layer.toggleProfile()
        #expect(!shown) // nothing open
        let flat = climb(elevations: false).withDetails()
        layer.add(TrackFile(path: "/flat.gpx", lines: [flat]))
        shown = layer.toggleProfile()
        #expect(!shown && !layer.showsProfile) // no elevations
        let line = climb().withDetails()
        layer.add(TrackFile(path: "/climb.gpx", lines: [line]))
        shown = layer.toggleProfile()
        #expect(shown && layer.showsProfile)
        #expect(layer.profileLine?.file.name == "climb.gpx")
        var scene = Still(camera: Camera(center: Coordinate(latitude: 46.05, longitude: 7), zoom: 12, viewportSize: size))
        scene.tracks = layer
        let list = scene.compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        // The panel's plate spans the bottom 150 points; the scale bar's plate is above it.
        let fills = list.commands.compactMap { c -> ScreenRect? in if case let .fillRect(r, _) = c { return r } else { return nil } }
        #expect(fills.contains { $0.y == 450 && $0.height == 150 && $0.width == 800 })
        #expect(fills.contains { $0.x < 10 && $0.width < 300 && $0.maxY <= 450 && $0.maxY > 400 }, "\(fills)")
        shown = layer.toggleProfile()
        #expect(shown && !layer.showsProfile)
    }

    @Test func thePointerOnTheGraphAndOnTheTrackMeanTheSamePlace() throws {
        let line = climb().withDetails()
        var layer = TracksLayer()
        layer.add(TrackFile(path: "/climb.gpx", lines: [line]))
        layer.toggleProfile()
        let camera = Camera(center: Coordinate(latitude: 46.05, longitude: 7), zoom: 12, viewportSize: size)
        let graph = TracksLayer.profileFrames(viewport: size).graph
        // A quarter of the way along the graph: about point 250.
        var changed = layer.hover(at: ScreenPoint(x: graph.x + graph.width / 4, y: graph.y + 10), camera: camera)
        #expect(changed && abs((layer.profileHover ?? -99) - 250) <= 4, "\(String(describing: layer.profileHover))")
        // On the track at 46.075° N (point 750).
        changed = layer.hover(at: camera.screenPoint(for: Coordinate(latitude: 46.075, longitude: 7)), camera: camera)
        #expect(changed && abs((layer.profileHover ?? -99) - 750) <= 2)
        // Beside the track, and off the window: nothing.
        changed = layer.hover(at: ScreenPoint(x: 50, y: 50), camera: camera)
        #expect(changed && layer.profileHover == nil)
        changed = layer.hover(at: nil, camera: camera)
        #expect(!changed)
    }
}

