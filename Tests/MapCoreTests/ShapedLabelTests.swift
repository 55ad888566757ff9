import Foundation
import MapCore
import MapGeometry
import Testing

/// Each text 7 points a letter plus its halo's padding, 16 high.
struct RunSprites: SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize? {
        guard case let .text(text, _)? = sprite.spec(as: LabelSprite.self) else { return nil }
        return ScreenSize(width: Double(text.count) * 7 + 4, height: 16)
    }
}

/// Names in scripts whose letters join, stack or run leftwards are set as one shaped run:
/// along a street where it is straight enough to carry the whole run, else level across it.
struct ShapedLabelTests {
    let camera = Camera(center: Coordinate(latitude: 31.77, longitude: 35.21), zoom: 16, viewportSize: ScreenSize(width: 800, height: 600))
    let look = LabelLook(size: 12, haloWidth: 1)

    func street(_ name: String, _ points: [(Double, Double)]) -> PlaceLabel {
        let path = points.map { camera.mapPoint(for: ScreenPoint(x: 400 + $0.0, y: 300 + $0.1)) }
        return PlaceLabel(name: name, point: path[0], rank: 0, style: .styled(look), placement: .line(path, spacing: 250))
    }

    @Test func scriptsThatNeedShapingAreKnown() {
        for name in ["شارع صلاح الدين", "רחוב יפו", "महात्मा गांधी मार्ग", "ถนนสุขุมวิท", "ផ្លូវ"] {
            #expect(PlaceLabel.needsShaping(name), "\(name)")
        }
        for name in ["Mannerheimintie", "Тверская улица", "Ελευθερίου Βενιζέλου", "東京", "Straße"] {
            #expect(!PlaceLabel.needsShaping(name), "\(name)")
        }
    }

    /// Along a straight street an Arabic name is one sprite — its whole text, as Pango shapes
    /// it — turned with the street; a Latin name is set letter by letter.
    @Test func anArabicNameIsOneRunAlongAStraightStreet() throws {
        let name = "شارع صلاح الدين"
        let placed = LabelPlacer().place([street(name, [(-300, -60), (300, 60)])], camera: camera, sprites: RunSprites())
        let label = try #require(placed.first)
        try #require(label.glyphs.count == 1)
        #expect(label.glyphs[0].key == SpriteKey.text(name, .styled(look)))
        #expect(abs(label.glyphs[0].degrees - atan2(120, 600) * 180 / .pi) < 1e-6)
        // Its room is claimed along the street: the box holds the run, not a square as wide.
        #expect(label.text.height < 60)
        let latin = LabelPlacer().place([street("Jaffa Road", [(-300, -60), (300, 60)])], camera: camera, sprites: RunSprites())
        #expect(latin.first?.glyphs.count == 10)
    }

    /// A Hebrew name on a street drawn westwards is still upright; where the street bends too
    /// much under the run it is set level across the street, at the place it labels.
    @Test func aHebrewNameIsUprightAndLevelWhereTheStreetBends() throws {
        let name = "רחוב יפו"
        let west = LabelPlacer().place([street(name, [(300, 30), (-300, -30)])], camera: camera, sprites: RunSprites())
        let g = try #require(west.first?.glyphs.first)
        #expect(abs(g.degrees) < 90)
        // A zigzag of 20-point teeth 30 points deep.
        var zigzag: [(Double, Double)] = []
        for i in 0...30 { zigzag.append((Double(i) * 20 - 300, i % 2 == 0 ? 0 : 30)) }
        let bent = LabelPlacer().place([street(name, zigzag)], camera: camera, sprites: RunSprites())
        let level = try #require(bent.first?.glyphs.first)
        #expect(level.degrees == 0 && bent.first?.glyphs.count == 1)
        // Its middle is on the street's line.
        #expect(level.center.y >= 300 - 1e-6 && level.center.y <= 330 + 1e-6)
    }
}
