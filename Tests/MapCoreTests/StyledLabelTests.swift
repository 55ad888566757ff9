import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

/// Every letter is 6 points wide plus its halo's padding (1 + 1 points a side at ratio 1), 16 high.
struct LetterSprites: SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize? { ScreenSize(width: 10, height: 16) }
}

/// Labels a style asks for: at a point with an anchor and offset, and along lines.
struct StyledLabelTests {
    let camera = Camera(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 16, viewportSize: ScreenSize(width: 800, height: 600))
    let look = LabelLook(size: 12, haloWidth: 1)

    /// A line through the view's centre from `dx0, dy0` to `dx1, dy1` points off it.
    func line(_ points: [(Double, Double)]) -> [MapPoint] {
        points.map { camera.mapPoint(for: ScreenPoint(x: 400 + $0.0, y: 300 + $0.1)) }
    }

    func street(_ name: String, _ points: [(Double, Double)], spacing: Double = 250, rank: Int = 0) -> PlaceLabel {
        PlaceLabel(name: name, point: line(points)[0], rank: rank, style: .styled(look), placement: .line(line(points), spacing: spacing))
    }

    @Test func aLetterFollowsTheLineAtItsAdvance() throws {
        let placed = LabelPlacer().place([street("Mannerheimintie", [(-300, 0), (300, 0)])], camera: camera, sprites: LetterSprites())
        try #require(placed.count == 2 || placed.count == 1)
        let g = placed[0].glyphs
        #expect(g.count == 15)
        for (a, b) in zip(g, g.dropFirst()) {
            #expect(abs(b.center.x - a.center.x - 6) < 1e-6) // 10 wide less 2 points of halo padding a side
            #expect(abs(a.center.y - 300) < 1e-6 && a.degrees == 0)
        }
        #expect(placed.allSatisfy { $0.ready })
    }

    @Test func aLineDrawnWestwardsIsReadLeftToRight() throws {
        let placed = LabelPlacer().place([street("Esplanadi", [(200, 40), (-200, -40)])], camera: camera, sprites: LetterSprites())
        let g = try #require(placed.first?.glyphs)
        #expect(g.count == 9)
        // Letters go east in reading order, turned with the line (down to the right, 11.3°).
        for (a, b) in zip(g, g.dropFirst()) { #expect(b.center.x > a.center.x && b.center.y > a.center.y) }
        #expect(g.allSatisfy { abs($0.degrees - atan2(80, 400) * 180 / .pi) < 1e-6 })
    }

    @Test func aLongLineRepeatsTheNameEverySpacing() {
        let placed = LabelPlacer().place([street("Hämeentie", [(-900, 0), (900, 0)], spacing: 200)], camera: camera, sprites: LetterSprites())
        let centres = placed.map { $0.glyphs[$0.glyphs.count / 2].center.x }.sorted()
        #expect(placed.count >= 4)
        for (a, b) in zip(centres, centres.dropFirst()) { #expect(abs(b - a - 200) < 1) }
    }

    @Test func aShortOrSharplyBentLineGetsNoLabel() {
        let short = street("Pitkänsillanranta", [(-40, 0), (40, 0)])
        // Steps of 8 points: no three letters lie on a line.
        var steps: [(Double, Double)] = []
        for i in 0..<16 {
            let x: Double = Double(i / 2) * 8 - 60
            let y: Double = Double((i + 1) / 2 % 2) * 8
            steps.append((x, y))
        }
        let bent = street("Zigzag", steps)
        #expect(LabelPlacer().place([short, bent], camera: camera, sprites: LetterSprites()).isEmpty)
    }

    @Test func crossingStreetsDoNotOverlap() {
        let a = street("Aleksanterinkatu", [(-300, 0), (300, 0)], rank: 2)
        let b = street("Unioninkatu", [(0, -300), (0, 300)], rank: 1)
        let placed = LabelPlacer().place([a, b], camera: camera, sprites: LetterSprites())
        let boxes = placed.flatMap { p in p.glyphs.map { g in (p.place.name, ScreenRect(x: g.center.x - 4, y: g.center.y - 4, width: 8, height: 8)) } }
        for (i, x) in boxes.enumerated() { for y in boxes[(i + 1)...] where x.0 != y.0 { #expect(!x.1.intersects(y.1)) } }
        #expect(placed.contains { $0.place.name == "Aleksanterinkatu" })
    }

    @Test func aPointLabelSitsOnItsAnchorMovedByItsOffset() throws {
        let at = camera.mapPoint(for: ScreenPoint(x: 400, y: 300))
        let label = PlaceLabel(name: "Kamppi", point: at, rank: 0, style: .styled(look),
                               placement: .point(anchor: .top, offset: ScreenPoint(x: 0, y: 6)))
        let placed = try #require(LabelPlacer().place([label], camera: camera, sprites: LetterSprites()).first)
        #expect(placed.text == ScreenRect(x: 395, y: 306, width: 10, height: 16))
    }

    @Test func textWrapsAtTheMaximumWidth() {
        let wide = LabelLook(size: 10, maxWidth: 6).estimatedSize("Helsingin rautatieasema")
        let one = LabelLook(size: 10).estimatedSize("Helsingin rautatieasema")
        #expect(wide.height > one.height * 1.6 && wide.width < one.width * 0.7)
    }

    /// Two streets that start at one node are both named (labels at points are kept once per
    /// name and place, lines by their name along them).
    @Test func streetsFromOneNodeAreBothNamed() {
        let a = street("Mikonkatu", [(0, 0), (0, -300)]), b = street("Kaivokatu", [(0, 0), (300, 0)])
        let names = Set(LabelPlacer().place([a, b], camera: camera, sprites: LetterSprites()).map(\.place.name))
        #expect(names == ["Mikonkatu", "Kaivokatu"])
    }

    /// Streets that curl (loops, hairpins, the bend of a station's forecourt): a name on them
    /// never reads upside down — most of its letters lean less than a right angle.
    @Test func noNameIsSetUpsideDownOnACurlingStreet() {
        var rng = SeededGenerator(seed: 7)
        var placedAny = 0
        for _ in 0..<60 {
            // A gently turning line: each step of 12 points turns by up to 10 degrees, in one
            // direction for a while, so it curls through 90–270 degrees.
            var heading = Double.random(in: 0..<(2 * .pi), using: &rng)
            let turn = Double.random(in: -0.17...0.17, using: &rng)
            var p = (x: Double.random(in: -200...200, using: &rng), y: Double.random(in: -150...150, using: &rng))
            var points = [p]
            for _ in 0..<40 {
                heading += turn
                p = (p.x + 12 * cos(heading), p.y + 12 * sin(heading))
                points.append(p)
            }
            for label in LabelPlacer().place([street("Elielinaukio", points, spacing: 120)], camera: camera, sprites: LetterSprites()) {
                placedAny += 1
                let upsideDown = label.glyphs.filter { abs($0.degrees) > 90 }.count
                #expect(upsideDown * 2 <= label.glyphs.count, "\(label.glyphs.map { Int($0.degrees) })")
            }
        }
        #expect(placedAny > 20)
    }

    /// An icon alone along a line (a one-way arrow) goes the line's way, even westwards, where
    /// a name would be set from the other end to read.
    @Test func anIconAloneFollowsItsLinesDirection() throws {
        let path = [(300.0, 0.0), (-300.0, 0.0)].map { camera.mapPoint(for: ScreenPoint(x: 400 + $0.0, y: 300 + $0.1)) }
        let icon = LabelIcon(IconSprite(sheet: "s.png", x: 0, y: 0, width: 32, height: 16, sheetRatio: 1, scale: 1))
        let arrow = PlaceLabel(name: "", point: path[0], rank: 0, style: .styled(look), placement: .line(path, spacing: 150), icon: icon)
        let placed = LabelPlacer().place([arrow], camera: camera, sprites: LetterSprites())
        try #require(placed.count >= 3)
        for p in placed {
            #expect(p.glyphs.count == 1 && p.glyphs[0].key == icon.key)
            #expect(abs(abs(p.glyphs[0].degrees) - 180) < 1e-6, "\(p.glyphs[0].degrees)")
        }
    }
}
