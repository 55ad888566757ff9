import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

/// Labels on a turned map: names at points stay level at their turned points, street names
/// follow their streets and never read upside down, map-aligned text and icons turn with the
/// map, and the placement holds through a turn as it holds through a zoom.
struct TurnedLabelTests {
    let centre = Coordinate(latitude: 60.17, longitude: 24.94)
    let look = LabelLook(size: 12, haloWidth: 1)

    func camera(_ bearing: Double, zoom: Double = 16) -> Camera {
        Camera(center: centre, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600), bearing: bearing)
    }

    /// A point `(dx, dy)` points from the centre of the north-up view at zoom 16.
    func at(_ dx: Double, _ dy: Double) -> MapPoint { camera(0).mapPoint(for: ScreenPoint(x: 400 + dx, y: 300 + dy)) }

    func street(_ name: String, from a: (Double, Double), to b: (Double, Double), rank: Int = 0, alignment: LabelAlignment? = nil) -> PlaceLabel {
        let path = [at(a.0, a.1), at(b.0, b.1)]
        return PlaceLabel(name: name, point: path[0], rank: rank, style: .styled(look), placement: .line(path, spacing: 250), alignment: alignment)
    }

    /// The direction the letters run in on screen, first to last, in degrees (0 rightwards, y down).
    func reading(_ p: PlacedLabel) -> Double {
        let a = p.glyphs[0].center, b = p.glyphs[p.glyphs.count - 1].center
        return atan2(b.y - a.y, b.x - a.x) * 180 / .pi
    }

    /// A street running east (10° north of it) on a map turned by 150°: on screen it runs up
    /// to the left; set from its start it would read upside down. Its name is set from the
    /// other end: left to right, each letter turned less than a right angle, on the street.
    @Test func aStreetNameAt150DegreesReadsLeftToRight() throws {
        let cam = camera(150)
        let s = street("Pohjoisesplanadi", from: (-300, 53), to: (300, -53))
        let placed = LabelPlacer().place([s], camera: cam, sprites: LetterSprites())
        let label = try #require(placed.first)
        #expect(label.glyphs.count == 16)
        #expect(abs(reading(label)) < 90, "reads at \(reading(label))°")
        for g in label.glyphs { #expect(abs(g.degrees) < 90, "letter at \(g.degrees)°") }
        // The letters lie on the street as the turned view shows it.
        let a = cam.screenPoint(for: at(-300, 53)), b = cam.screenPoint(for: at(300, -53))
        for g in label.glyphs {
            let cross = ((g.center.x - a.x) * (b.y - a.y) - (g.center.y - a.y) * (b.x - a.x)) / hypot(b.x - a.x, b.y - a.y)
            #expect(abs(cross) < 0.5)
        }
        // The street's own direction on screen (from its start) points the other way.
        #expect(abs(atan2(b.y - a.y, b.x - a.x) * 180 / .pi) > 90)
    }

    /// All the way round in steps of 15°: no street name ever reads upside down.
    @Test func noBearingSetsANameUpsideDown() throws {
        let streets = [street("Aleksanterinkatu", from: (-300, 53), to: (300, -53)),
                       street("Unioninkatu", from: (-40, 280), to: (30, -280), rank: 1)]
        for b in stride(from: 0.0, to: 360, by: 15) {
            let placed = LabelPlacer().place(streets, camera: camera(b), sprites: LetterSprites())
            #expect(placed.count >= 2, "at \(b)°")
            for p in placed { #expect(abs(reading(p)) <= 90, "\(p.place.name) at \(b)° reads at \(reading(p))°") }
        }
    }

    /// Names at points stay level and unscaled, each on its point where the turned view shows it.
    @Test func pointLabelsStayUprightAtTheirTurnedAnchors() throws {
        let cam = camera(150)
        let names = [("Kamppi", -200.0, -100.0), ("Kruununhaka", 180, 60), ("Punavuori", -60, 200)]
        let labels = names.map { PlaceLabel(name: $0.0, point: at($0.1, $0.2), rank: 0, style: .styled(look),
                                            placement: .point(anchor: .top, offset: ScreenPoint(x: 0, y: 6))) }
        let placed = LabelPlacer().place(labels, camera: cam, sprites: LetterSprites())
        #expect(placed.count == 3)
        for p in placed {
            let q = cam.screenPoint(for: p.place.point)
            #expect(p.degrees == 0 && p.scale == 1)
            #expect(p.text.width == 10 && p.text.height == 16)
            // Its top edge's middle 6 points below the turned point: the anchor did not turn.
            #expect(abs(p.text.x + p.text.width / 2 - q.x) < 1e-9 && abs(p.text.y - (q.y + 6)) < 1e-9)
        }
    }

    /// A map-aligned name at a point (text-rotation-alignment: map) turns with the map about its
    /// point, as does a map-aligned icon; it claims the box around its turned text.
    @Test func mapAlignedTextAndIconsTurnWithTheMap() throws {
        let cam = camera(90)
        let icon = LabelIcon(IconSprite(sheet: "s.png", x: 0, y: 0, width: 8, height: 4, sheetRatio: 1, scale: 1))
        let label = PlaceLabel(name: "Hietalahti", point: at(0, 0), rank: 0, style: .styled(look),
                               placement: .point(anchor: .left, offset: ScreenPoint(x: 20, y: 0)), icon: icon,
                               alignment: LabelAlignment(text: .map, icon: .map))
        let p = try #require(LabelPlacer().place([label], camera: cam, sprites: LetterSprites()).first)
        // At 90° east is up: the map, and the text with it, is turned a quarter counter-clockwise.
        #expect(p.degrees == 270 && p.iconDegrees == 270)
        let q = cam.screenPoint(for: label.point)
        // Its left edge sat 20 points right of the point: turned, its middle is 25 points above it.
        #expect(abs(p.text.x + p.text.width / 2 - q.x) < 1e-9 && abs(p.text.y + p.text.height / 2 - (q.y - 25)) < 1e-9)
        var scene = Still(camera: cam)
        scene.labelFadeSeconds = 0
        let list = scene.compose(at: 0, tiles: RevisedTiles([label], revision: 1), sprites: LetterSprites())
        let turned = list.commands.compactMap { c -> Double? in if case let .rotatedSprite(_, _, _, d) = c { d } else { nil } }
        #expect(turned == [270, 270], "\(list.commands)")
        // Level (the default at a point), the same label is drawn level.
        let level = PlaceLabel(name: "Hietalahti", point: at(0, 0), rank: 0, style: .styled(look),
                               placement: .point(anchor: .left, offset: ScreenPoint(x: 20, y: 0)))
        let l = try #require(LabelPlacer().place([level], camera: cam, sprites: LetterSprites()).first)
        #expect(l.degrees == 0 && abs(l.text.x - (q.x + 20)) < 1e-9)
    }

    /// text-rotation-alignment viewport along a line: the name is one level run at its spot on
    /// the street; viewport-glyph: letters on the street, each level.
    @Test func levelTextAlongALine() throws {
        let cam = camera(30)
        let level = street("Bulevardi", from: (-300, 0), to: (300, 0), alignment: LabelAlignment(text: .viewport, icon: .viewport))
        let p = try #require(LabelPlacer().place([level], camera: cam, sprites: LetterSprites()).first)
        #expect(p.glyphs.count == 1 && p.glyphs[0].degrees == 0)
        let glyphs = street("Bulevardi", from: (-300, 0), to: (300, 0), alignment: LabelAlignment(text: .viewportGlyph, icon: .map))
        let g = try #require(LabelPlacer().place([glyphs], camera: cam, sprites: LetterSprites()).first)
        #expect(g.glyphs.count == 9 && g.glyphs.allSatisfy { $0.degrees == 0 })
        #expect(abs(abs(reading(g)) - 30) < 1e-6) // still along the street, turned 30° on screen
    }

    /// Through a turn from 0° to 30° in steps of a degree, labels are held to the placement
    /// before (`LabelMemory`), as through a zoom: a label shown stays where it was while it
    /// fits there. Points turning about the centre bring some level labels onto each other
    /// (one of the two must go, as in MapLibre), but no label gives way to one that was not
    /// shown. Placed afresh at each step, labels come and go more often.
    @Test func theMemoryKeepsTheSameLabelsThroughATurn() throws {
        var rng = SeededGenerator(seed: 53)
        var candidates: [PlaceLabel] = []
        for i in 0..<160 {
            let p = at(.random(in: -420...420, using: &rng), .random(in: -320...320, using: &rng))
            candidates.append(PlaceLabel(name: "Paikka \(i)", point: p, rank: i % 7, style: .styled(look),
                                         placement: .point(anchor: .center, offset: ScreenPoint(x: 0, y: 0))))
        }
        for i in 0..<24 {
            let y = Double(i) * 50 - 575, tilt = Double(i % 5) * 15 - 30
            candidates.append(street("Katu \(i)", from: (-600, y - tilt), to: (600, y + tilt), rank: i % 3))
        }
        let placer = LabelPlacer()
        func names(_ placed: [PlacedLabel]) -> Set<String> { Set(placed.map(\.place.name)) }
        // Only labels well inside the view compete on equal terms (the corners turn out of it):
        // those within 250 points of its centre, which turning keeps there.
        func central(_ placed: [PlacedLabel]) -> Set<String> {
            names(placed.filter { hypot($0.anchor.x - 400, $0.anchor.y - 300) < 250 })
        }
        let first = placer.place(candidates, camera: camera(0), sprites: LetterSprites())
        #expect(central(first).count >= 20, "\(central(first).count) labels in the middle")
        var memory = LabelMemory(first, camera: camera(0))
        var held = central(first), fresh = central(first), shown = names(first)
        var heldChanges = 0, freshChanges = 0, forced = 0
        for b in stride(from: 1.0, through: 30, by: 1) {
            let cam = camera(b)
            let placed = placer.place(candidates, camera: cam, sprites: LetterSprites(), previous: memory)
            let now = central(placed)
            // A label that went had to: placed with only the labels that were shown and are
            // still, where it was, it does not fit either.
            for gone in held.subtracting(now) {
                let kept = candidates.filter { names(placed).contains($0.name) && shown.contains($0.name) || $0.name == gone }
                let alone = placer.place(kept, camera: cam, sprites: LetterSprites(), previous: memory)
                #expect(!names(alone).contains(gone), "at \(b)°: \(gone) gave way to a label that was not shown")
                forced += 1
            }
            heldChanges += now.symmetricDifference(held).count
            held = now
            shown = names(placed)
            memory = LabelMemory(placed, camera: cam)
            let afresh = central(placer.place(candidates, camera: cam, sprites: LetterSprites()))
            freshChanges += afresh.symmetricDifference(fresh).count
            fresh = afresh
        }
        // Held: labels go only where turning brings them onto each other (12 of the 60-odd
        // here), and others come into the room that frees (22 comings and goings in all);
        // afresh, the placement reshuffles besides (37).
        #expect(heldChanges < freshChanges, "held: \(heldChanges) comings and goings, afresh: \(freshChanges)")
        #expect(forced <= 15, "\(forced) labels had to go")
    }

    /// A placement drawn at a camera turned since (a label fading out, a frame between two
    /// placements): letters along a line turn with the map about their points; level text
    /// keeps level.
    @Test func aLabelMovedToATurnedCameraTurnsItsLetters() throws {
        var scene = Still(camera: camera(0))
        scene.labelFadeSeconds = 0.2
        let s = street("Mannerheimintie", from: (-300, 0), to: (300, 0))
        let tiles = RevisedTiles([s], revision: 1)
        _ = scene.compose(at: 0, tiles: tiles, sprites: LetterSprites())
        _ = scene.compose(at: 1, tiles: tiles, sprites: LetterSprites())
        // The street leaves (another revision without it): its letters fade out where they were,
        // and the map turns under them.
        tiles.places = []
        tiles.revision = 2
        scene.camera = camera(20)
        let list = scene.compose(at: 1.05, tiles: tiles, sprites: LetterSprites())
        let degrees = list.commands.compactMap { c -> Double? in if case let .rotatedSprite(_, _, _, d) = c { d } else { nil } }
        #expect(degrees.count == 15 * 2 || degrees.count == 15, "\(degrees.count) letters")
        #expect(degrees.allSatisfy { abs($0 + 20) < 1e-9 }, "\(degrees)")
    }
}
