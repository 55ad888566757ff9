import Foundation
@testable import MapCore
import MapGeometry
import Testing
import TestSupport

/// Every label is 60×14 points.
struct FixedSprites: SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize? { ScreenSize(width: 60, height: 14) }
}

struct LabelTests {
    func camera(zoom: Double = 6, center: Coordinate = Coordinate(latitude: 48, longitude: 8)) -> Camera {
        Camera(center: center, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 500))
    }

    func places(_ n: Int, seed: UInt64, around c: Coordinate = Coordinate(latitude: 48, longitude: 8)) -> [PlaceLabel] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { i in
            PlaceLabel(name: "P\(i)", point: WebMercator.project(Coordinate(latitude: c.latitude + .random(in: -6...6, using: &rng),
                                                                            longitude: c.longitude + .random(in: -10...10, using: &rng))),
                       population: .random(in: 15_000...5_000_000, using: &rng), capital: i % 37 == 0)
        }
    }

    @Test func placedLabelsNeverOverlapAndStayUpright() {
        let placed = LabelPlacer().place(places(600, seed: 1), camera: camera(), sprites: FixedSprites())
        #expect(placed.count > 12)
        for (i, a) in placed.enumerated() {
            #expect(a.text.width == 60 && a.text.height == 14) // unrotated, unscaled
            for b in placed[(i + 1)...] {
                #expect(!a.text.intersects(b.text))
                #expect(!a.text.intersects(b.dot) && !b.text.intersects(a.dot))
            }
        }
    }

    @Test func moreImportantPlacesWin() {
        let p = WebMercator.project(Coordinate(latitude: 48, longitude: 8))
        let big = PlaceLabel(name: "Big", point: p, population: 2_000_000, capital: false)
        let small = PlaceLabel(name: "Small", point: MapPoint(x: p.x + 0.0001, y: p.y), population: 20_000, capital: false)
        let capital = PlaceLabel(name: "Capital", point: MapPoint(x: p.x - 0.0001, y: p.y), population: 600_000, capital: true)
        let tinyCapital = PlaceLabel(name: "Tiny", point: MapPoint(x: p.x - 0.0002, y: p.y), population: 20_000, capital: true)
        // A capital counts four times its population: 2.4 M beats 2 M; 80 k loses to 2 M.
        #expect(LabelPlacer().place([small, big, capital], camera: camera(), sprites: FixedSprites()).map(\.place.name) == ["Capital"])
        #expect(LabelPlacer().place([small, big, tinyCapital], camera: camera(), sprites: FixedSprites()).map(\.place.name) == ["Big"])
    }

    @Test func panningMovesLabelsTogetherWithoutReshuffling() {
        let all = places(800, seed: 2)
        var cam = camera()
        let before = LabelPlacer().place(all, camera: cam, sprites: FixedSprites())
        cam.pan(byScreen: 37, -23)
        let after = LabelPlacer().place(all, camera: cam, sprites: FixedSprites())
        let b = Dictionary(uniqueKeysWithValues: before.map { ($0.place.name, $0.text) })
        var common = 0
        for a in after {
            guard let old = b[a.place.name] else { continue }
            common += 1
            #expect(abs(a.text.x - old.x - 37) < 1e-6 && abs(a.text.y - old.y + 23) < 1e-6)
        }
        // Labels well inside the view are the same ones after a small pan.
        let inner = before.filter { $0.text.x > 100 && $0.text.maxX < 700 && $0.text.y > 100 && $0.text.maxY < 400 }
        #expect(inner.allSatisfy { b in after.contains { $0.place.name == b.place.name } })
        #expect(common > 8)
    }

    @Test func labelsWithoutSpritesHoldTheirSpotButAreNotReady() {
        let placed = LabelPlacer().place(places(50, seed: 3), camera: camera(), sprites: NoSprites())
        #expect(!placed.isEmpty)
        #expect(placed.allSatisfy { !$0.ready })
    }

    @Test("Scale bar picks round distances", arguments: [
        // (zoom, latitude, imperial, label) — at the equator z0 is 156,543 m per point.
        (0.0, 0.0, false, "10000 km"),
        (10.0, 0.0, false, "10 km"),
        (15.0, 0.0, false, "500 m"),
        (10.0, 60.0, false, "5 km"),
        (10.0, 0.0, true, "10 mi"),
        (17.0, 0.0, true, "200 ft"),
    ])
    func scaleBar(zoom: Double, lat: Double, imperial: Bool, label: String) {
        let cam = Camera(center: Coordinate(latitude: lat, longitude: 0), zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600))
        let bar = ScaleBar.make(camera: cam, imperial: imperial)
        #expect(bar.label == label)
        #expect(bar.width <= 110 && bar.width > 110 / 2.5 - 1e-9)
        // The bar's length really is that distance on the ground.
        let metersPerPoint = WebMercator.metersPerMapPoint(atLatitude: lat) / pow(2, zoom)
        let parts = label.split(separator: " ")
        let unit = ["km": 1000.0, "m": 1, "mi": 1609.344, "ft": 0.3048][String(parts[1])]!
        #expect(abs(bar.width * metersPerPoint - Double(parts[0])! * unit) < 1e-6 * Double(parts[0])! * unit)
    }

    /// Panning north changes the bar's width with the latitude but not its round length: the
    /// label (what the chrome keeps between frames) is the same.
    @Test func aPanChangesTheWidthNotTheLength() {
        func cam(_ lat: Double) -> Camera { Camera(center: Coordinate(latitude: lat, longitude: 0), zoom: 10, viewportSize: ScreenSize(width: 800, height: 600)) }
        let a = ScaleBar.span(camera: cam(60), imperial: false), b = ScaleBar.span(camera: cam(60.05), imperial: false)
        #expect(a.sameLength(as: b) && a.width != b.width)
        #expect(a.label == ScaleBar.make(camera: cam(60), imperial: false).label)
        #expect(!a.sameLength(as: ScaleBar.span(camera: cam(20), imperial: false)))
    }
}
