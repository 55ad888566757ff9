import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

/// The camera with a bearing: conversions, pan, zoom and turns in the turned frame, and the
/// tiles a turned view lays out.
struct TurnedCameraTests {
    let size = ScreenSize(width: 800, height: 600)

    func screenDistance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { (a - b).length }

    @Test func theBearingIsTheCompassDirectionOfTheTopOfTheView() {
        // 90°: east is up, so a point east of the centre is above it.
        let cam = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 10, viewportSize: size, bearing: 90)
        let east = cam.screenPoint(for: Coordinate(latitude: 0, longitude: 0.1))
        #expect(abs(east.x - 400) < 1e-6 && east.y < 300 - 10)
        let north = cam.screenPoint(for: Coordinate(latitude: 0.1, longitude: 0))
        #expect(north.x < 400 - 10 && abs(north.y - 300) < 1e-6)
        #expect(cam.northOnScreen == 270)
    }

    @Test func bearingsAreKeptInOneTurn() {
        var cam = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: size)
        for (given, kept) in [(360.0, 0.0), (-15, 345), (725, 5), (-720, 0), (1e-9, 0)] {
            cam.setBearing(given)
            #expect(abs(cam.bearing - kept) < 1e-9, "\(given) → \(cam.bearing)")
        }
        cam.setBearing(.nan)
        #expect(cam.bearing == 0)
        #expect(!cam.isTurned)
    }

    @Test func screenAndMapRoundTripWhenTurned() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<1000 {
            let cam = Camera(center: MapPoint(x: .random(in: 0..<256, using: &rng), y: .random(in: 0...256, using: &rng)),
                             zoom: .random(in: 0...20, using: &rng), viewportSize: size, bearing: .random(in: 0..<360, using: &rng))
            let s = ScreenPoint(x: .random(in: 0...800, using: &rng), y: .random(in: 0...600, using: &rng))
            #expect(screenDistance(cam.screenPointUnwrapped(for: cam.mapPoint(for: s)), s) < 1e-6)
        }
    }

    @Test("The point under the pointer stays under it through a turn, a zoom and a pan")
    func pointerInvariants() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<1000 {
            var cam = Camera(center: Coordinate(latitude: .random(in: -60...60, using: &rng), longitude: .random(in: -180..<180, using: &rng)),
                             zoom: .random(in: 5...18, using: &rng), viewportSize: size, bearing: .random(in: 0..<360, using: &rng))
            let anchor = ScreenPoint(x: .random(in: 0...800, using: &rng), y: .random(in: 0...600, using: &rng))
            let under = cam.mapPoint(for: anchor)
            cam.setBearing(.random(in: -720...720, using: &rng), around: anchor)
            #expect(screenDistance(cam.screenPoint(for: under), anchor) < 1e-6)
            cam.zoom(to: min(cam.zoom + .random(in: -2...2, using: &rng), 20), around: anchor)
            #expect(screenDistance(cam.screenPoint(for: under), anchor) < 1e-6)
            // A drag moves the map with the pointer, turned or not.
            let to = ScreenPoint(x: anchor.x + .random(in: -50...50, using: &rng), y: anchor.y + .random(in: -50...50, using: &rng))
            cam.pan(byScreen: to.x - anchor.x, to.y - anchor.y)
            #expect(screenDistance(cam.screenPoint(for: under), to) < 1e-6)
        }
    }

    @Test func zeroAndAFullTurnAreTheSameView() {
        let a = Camera(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 15, viewportSize: size)
        var b = a
        b.setBearing(360)
        #expect(a == b)
        b.setBearing(137)
        b.setBearing(b.bearing - 137)
        #expect(a == b)
    }

    @Test func theVisibleBoxHoldsTheTurnedCorners() {
        let cam = Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 6, viewportSize: size, bearing: 30)
        let box = cam.visibleMapRect
        for c in cam.visibleCorners {
            #expect(c.x >= box.minX - 1e-9 && c.x <= box.maxX + 1e-9 && c.y >= box.minY - 1e-9 && c.y <= box.maxY + 1e-9)
        }
        // At 90° the box is the view's height wide.
        let q = Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 6, viewportSize: size, bearing: 90)
        #expect(abs(q.visibleMapRect.size.width * q.scale - 600) < 1e-6 && abs(q.visibleMapRect.size.height * q.scale - 800) < 1e-6)
    }

    @Test func aTurnedViewLaysOutOnlyTheTilesItTouchesNearestFirst() {
        var cam = Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 7, viewportSize: size)
        cam.setBearing(45)
        let z = 7
        let box = TileCover.tiles(covering: cam.visibleMapRect, tileZoom: z)
        let touched = box.filter { cam.sees($0.mapRect) }
        #expect(touched.count < box.count)
        let s = Still(camera: cam, tileZoomRange: 0...18)
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: Set(box.map(\.wrapped))))
        let tiles = list.commands.compactMap { c -> (TileID, ScreenRect, Double)? in
            if case let .tile(id, _, _, r, _, d) = c { return (id, r, d) } else { return nil }
        }
        #expect(tiles.count == touched.count)
        #expect(tiles.allSatisfy { $0.2 == 315 })
        #expect(list.wantedTiles.isEmpty)
        // Every point of the view lies in exactly one turned tile.
        for y in stride(from: 0.5, to: 600, by: 29) {
            for x in stride(from: 0.5, to: 800, by: 31) {
                let p = ScreenPoint(x: x, y: y)
                let n = tiles.filter { Self.turned($0.1, $0.2, contains: p) }.count
                #expect(n == 1, "(\(x),\(y)) in \(n) tiles")
                // …and it is the tile whose map rect holds the point under it.
                if let t = tiles.first(where: { Self.turned($0.1, $0.2, contains: p) }) {
                    let m = cam.mapPoint(for: p)
                    #expect(t.0.mapRect.contains(MapPoint(x: WebMercator.wrapX(m.x), y: m.y)))
                }
            }
        }
        // Wanted missing tiles come nearest the centre first.
        let missing = s.compose(at: 0, tiles: ReadyTiles(ready: [])).wantedTiles
        #expect(Set(missing) == Set(touched.map(\.wrapped)))
        let d = missing.map { t -> Double in
            let c = cam.screenPointUnwrapped(for: t.mapRect.center), m = cam.screenCenter
            return screenDistance(c, m)
        }
        #expect(d.first! <= d.last!)
    }

    /// Whether `p` lies in `r` turned clockwise by `degrees` about its centre.
    static func turned(_ r: ScreenRect, _ degrees: Double, contains p: ScreenPoint) -> Bool {
        let a = degrees * .pi / 180, cx = r.x + r.width / 2, cy = r.y + r.height / 2
        let dx = p.x - cx, dy = p.y - cy
        let lx = dx * cos(a) + dy * sin(a), ly = -dx * sin(a) + dy * cos(a)
        return abs(lx) < r.width / 2 && abs(ly) < r.height / 2
    }

    @Test func aPanOfATurnedViewSlidesTheLastLayoutOnlyWhileItShowsTheSameTiles() {
        // The memo moves a turned layout by the turned slide: the same commands as laid out
        // anew, step after step of a long pan — also where a corner tile comes into the turned
        // view with no new row or column of the box around it.
        var s = Still(camera: Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 7.2, viewportSize: size, bearing: 30),
                      tileZoomRange: 0...18, layers: [])
        let tiles = TileCover.tiles(covering: s.camera.grown(by: 1500).visibleMapRect, tileZoom: 7)
        let store = CountedTiles(Set(tiles.map(\.wrapped)), revision: 3)
        _ = s.compose(at: 0, tiles: store)
        var slid = 0
        for _ in 0..<150 {
            let asked = store.asked
            s.camera.pan(byScreen: 7, -3)
            let list = s.compose(at: 0, tiles: store)
            if store.asked == asked { slid += 1 }
            let fresh = Still(camera: s.camera, tileZoomRange: 0...18, layers: []).compose(at: 0, tiles: CountedTiles(store.ready, revision: nil))
            let a = list.tileCommands.sorted { "\($0.0)" < "\($1.0)" }, b = fresh.tileCommands.sorted { "\($0.0)" < "\($1.0)" }
            #expect(a.map(\.0) == b.map(\.0))
            for (x, y) in zip(a, b) { #expect(abs(x.2.x - y.2.x) < 1e-6 && abs(x.2.y - y.2.y) < 1e-6) }
        }
        #expect(slid > 50, "only \(slid) of 150 frames slid")
    }
}
