import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

struct CameraTests {
    let size = ScreenSize(width: 800, height: 600)

    @Test func centreIsInTheMiddleOfTheScreen() {
        let cam = Camera(center: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: 10, viewportSize: size)
        let p = cam.screenPoint(for: Coordinate(latitude: 48.8566, longitude: 2.3522))
        #expect(abs(p.x - 400) < 1e-6 && abs(p.y - 300) < 1e-6)
        #expect(abs(cam.centerCoordinate.latitude - 48.8566) < 1e-9)
    }

    @Test func worldIs256TimesTwoToTheZoomPointsWide() {
        for z in [0.0, 1, 3.5, 12] {
            let cam = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: z, viewportSize: size)
            let a = cam.mapPoint(for: ScreenPoint(x: 0, y: 300)), b = cam.mapPoint(for: ScreenPoint(x: 256, y: 300))
            #expect(abs((b.x - a.x) * 256 * pow(2, z) / 256 - 256) < 1e-9)
        }
    }

    @Test func screenAndMapRoundTrip() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<1000 {
            let cam = Camera(center: MapPoint(x: .random(in: 0..<256, using: &rng), y: .random(in: 0...256, using: &rng)),
                             zoom: .random(in: 0...20, using: &rng), viewportSize: size)
            let s = ScreenPoint(x: .random(in: 0...800, using: &rng), y: .random(in: 0...600, using: &rng))
            let back = cam.screenPointUnwrapped(for: cam.mapPoint(for: s))
            #expect(screenDistance(back, s) < 1e-6)
        }
    }

    @Test("The point under the anchor stays put while zooming (property)")
    func anchorInvariant() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            var cam = Camera(center: Coordinate(latitude: .random(in: -70...70, using: &rng), longitude: .random(in: -180..<180, using: &rng)),
                             zoom: .random(in: 2...18, using: &rng), viewportSize: size)
            let anchor = ScreenPoint(x: .random(in: 0...800, using: &rng), y: .random(in: 0...600, using: &rng))
            let before = cam.coordinate(for: anchor)
            cam.zoom(to: .random(in: 2...18, using: &rng), around: anchor)
            let after = cam.screenPoint(for: before)
            #expect(screenDistance(after, anchor) < 1e-6, "anchor \(anchor) drifted to \(after)")
        }
    }

    @Test func panMovesTheMapWithThePointer() {
        var cam = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: size)
        let c = cam.center
        cam.pan(byScreen: 100, 50)
        #expect(abs((c.x - cam.center.x) * 8 - 100) < 1e-9)
        #expect(abs((c.y - cam.center.y) * 8 - 50) < 1e-9)
    }

    @Test func centreWrapsAcrossTheAntimeridian() {
        var cam = Camera(center: Coordinate(latitude: 0, longitude: 179), zoom: 4, viewportSize: size)
        cam.pan(byScreen: -1000, 0) // drag west: the map moves east past 180°
        #expect(cam.center.x >= 0 && cam.center.x < 256)
        #expect(cam.centerCoordinate.longitude < 0)
        // A place just across the line is drawn next to the centre, not a world away.
        let p = cam.screenPoint(for: Coordinate(latitude: 0, longitude: 179))
        #expect(p.x < 400 && p.x > -800)
    }

    @Test func zoomAndLatitudeAreClamped() {
        var cam = Camera(center: Coordinate(latitude: 89, longitude: 0), zoom: 25, viewportSize: size)
        #expect(cam.zoom == Camera.maxZoom)
        #expect(cam.centerCoordinate.latitude <= Coordinate.maxMercatorLatitude + 1e-9)
        cam.setZoom(-3)
        #expect(cam.zoom == 0)
        cam.setZoom(.nan)
        #expect(cam.zoom == 0)
    }

    @Test func zoomToFitShowsTheWholeRect() {
        let cam = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 1, viewportSize: size)
        let rect = WebMercator.mapRect(for: CoordinateRegion(center: Coordinate(latitude: 46, longitude: 2), latitudeDelta: 10, longitudeDelta: 12))
        let z = cam.zoomToFit(rect, padding: 20)
        #expect(rect.size.width * pow(2, z) <= 760 + 1e-6)
        #expect(rect.size.height * pow(2, z) <= 560 + 1e-6)
        #expect(max(rect.size.width * pow(2, z) - 760, rect.size.height * pow(2, z) - 560) > -1e-6)
    }
}
