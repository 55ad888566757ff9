import MapCore
import MapGeometry
import Testing

/// Labels hold still: a label keeps its side and its spot along a street while the map zooms
/// under it, and labels fade in and out instead of popping.
struct LabelHoldTests {
    let centre = Coordinate(latitude: 48, longitude: 8)

    func camera(_ zoom: Double) -> Camera { Camera(center: centre, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 500)) }

    /// A town at `(dx, dy)` points from the centre at zoom 6.
    func town(_ name: String, _ dx: Double, _ dy: Double, population: Int) -> PlaceLabel {
        PlaceLabel(name: name, point: camera(6).mapPoint(for: ScreenPoint(x: 400 + dx, y: 250 + dy)), population: population, capital: false)
    }

    /// Lahr's right side is taken by Offenburg at zoom 6, so it is labelled on its left; zooming
    /// in frees its right. Placed afresh at each zoom it would jump there; held, it stays on its
    /// left, frame by frame, in and back out, its dot going with the map.
    @Test func aLabelKeepsItsSideThroughAZoomInAndOut() throws {
        let lahr = town("Lahr", 0, 0, population: 40_000), offenburg = town("Offenburg", 60, 0, population: 60_000)
        let placer = LabelPlacer()
        var memory = LabelMemory()
        var zooms = stride(from: 6.0, through: 6.5, by: 0.05).map { $0 }
        zooms += zooms.reversed().dropFirst()
        for z in zooms {
            let cam = camera(z)
            let placed = placer.place([lahr, offenburg], camera: cam, sprites: FixedSprites(), previous: memory)
            let l = try #require(placed.first { $0.place.name == "Lahr" }, "Lahr at \(z)")
            #expect(l.side == .left, "at zoom \(z)")
            let p = cam.screenPoint(for: lahr.point)
            #expect(abs(l.anchor.x - p.x) < 1e-9 && abs(l.anchor.y - p.y) < 1e-9)
            memory = LabelMemory(placed, camera: cam)
        }
        // Placed afresh at 6.5, it would have moved to its right.
        let fresh = placer.place([lahr, offenburg], camera: camera(6.5), sprites: FixedSprites())
        #expect(fresh.first { $0.place.name == "Lahr" }?.side == .right)
    }

    /// A street's name is tried first where it was: through a zoom in steps, each label of the
    /// street stays at the same point of the street. Placed afresh, the spots (every 250 points
    /// from the line's start) slide along it with the zoom.
    @Test func aStreetNameStaysAtItsPlaceOnTheStreet() throws {
        let look = LabelLook(size: 12, haloWidth: 1)
        let path = [-900.0, 900].map { camera(16).mapPoint(for: ScreenPoint(x: 400 + $0, y: 250 + $0 * 0.1)) }
        let street = PlaceLabel(name: "Hauptstraße", point: path[0], rank: 0, style: .styled(look), placement: .line(path, spacing: 250))
        let placer = LabelPlacer()
        let first = placer.place([street], camera: camera(16), sprites: LetterSprites())
        try #require(first.count >= 3)
        let held = first.map { camera(16).mapPoint(for: $0.anchor) }
        var memory = LabelMemory(first, camera: camera(16))
        for z in [16.1, 16.2, 16.3, 16.2, 16.1, 16.0] {
            let cam = camera(z)
            let placed = placer.place([street], camera: cam, sprites: LetterSprites(), previous: memory)
            // Each label seen before is where it was (within a point on screen).
            for h in held {
                let p = cam.screenPoint(for: h)
                guard p.x > 60, p.x < 740 else { continue }
                #expect(placed.contains { abs($0.anchor.x - p.x) < 1 && abs($0.anchor.y - p.y) < 1 }, "at \(z): none at \(p)")
            }
            memory = LabelMemory(placed, camera: cam)
        }
        let fresh = placer.place([street], camera: camera(16.3), sprites: LetterSprites())
        let moved = held.map { camera(16.3).screenPoint(for: $0) }.filter { p in !fresh.contains { abs($0.anchor.x - p.x) < 1 } }
        #expect(!moved.isEmpty)
    }

    func opacity(_ list: DrawList, _ name: String) -> Double? {
        list.spriteCommands.first { "\($0.0)".contains("\"\(name)\"") }?.2
    }

    /// In a window labels fade in as they come and out as they go, over `labelFadeSeconds`,
    /// and the frames keep coming until the fades end; the one going moves with the map.
    @Test func labelsFadeInAndOut() throws {
        var scene = Still(camera: camera(6))
        scene.labelFadeSeconds = 0.2
        let paris = town("Paris", -100, 0, population: 2_000_000), lyon = town("Lyon", 100, 80, population: 500_000)
        let tiles = RevisedTiles([paris], revision: 1)
        let start = scene.compose(at: 10, tiles: tiles, sprites: FixedSprites())
        #expect(opacity(start, "Paris") == nil && start.animating)
        let half = scene.compose(at: 10.1, tiles: tiles, sprites: FixedSprites())
        #expect(abs((opacity(half, "Paris") ?? 0) - 0.5) < 1e-6 && half.animating)
        let full = scene.compose(at: 10.25, tiles: tiles, sprites: FixedSprites())
        #expect(opacity(full, "Paris") == 1 && !full.animating)
        let before = try #require(full.spriteCommands.first { "\($0.0)".contains("\"Paris\"") }?.1)
        // Paris's tile goes, Lyon's comes: one fades out as the other fades in.
        tiles.places = [lyon]
        tiles.revision = 2
        _ = scene.compose(at: 11, tiles: tiles, sprites: FixedSprites())
        scene.camera = Camera(center: camera(6).mapPoint(for: ScreenPoint(x: 450, y: 250)), zoom: 6, viewportSize: scene.camera.viewportSize)
        let mid = scene.compose(at: 11.1, tiles: tiles, sprites: FixedSprites())
        #expect(abs((opacity(mid, "Paris") ?? 0) - 0.5) < 1e-6 && abs((opacity(mid, "Lyon") ?? 0) - 0.5) < 1e-6 && mid.animating)
        let moved = try #require(mid.spriteCommands.first { "\($0.0)".contains("\"Paris\"") }?.1)
        #expect(abs(moved.x - (before.x - 50)) < 1e-6 && moved.y == before.y)
        #expect(!mid.placedLabels.contains { $0.place.name == "Paris" })
        let end = scene.compose(at: 11.3, tiles: tiles, sprites: FixedSprites())
        #expect(opacity(end, "Paris") == nil && opacity(end, "Lyon") == 1 && !end.animating)
    }

    /// A still picture (the default) draws every label at once.
    @Test func withoutFadesLabelsAreDrawnAtOnce() {
        let scene = Still(camera: camera(6))
        let list = scene.compose(at: 0, tiles: RevisedTiles([town("Paris", 0, 0, population: 2_000_000)], revision: 1), sprites: FixedSprites())
        #expect(opacity(list, "Paris") == 1 && !list.animating)
    }
}
