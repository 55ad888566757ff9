import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Testing

/// Hillshading lit from the viewport (MapLibre's default anchor) on a turned map: lit from the
/// style's direction on the screen, which on the map is that direction plus the bearing; a
/// `map`-anchored light does not turn. And the sprites a turned map's chrome is drawn with.
struct TurnedLightTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dem/terrarium-12-646-1400.png")
    static let tile = TileID(z: 12, x: 646, y: 1400)

    @Test func terrainOnAMapTurnedByNinetyIsLitAsIfTheLightCameFromNinetyFurtherRound() throws {
        let png = try Data(contentsOf: Self.fixture)
        let dem = try DEMTile(png: png, encoding: .terrarium)
        let turned = try TerrainTilePainter.paint(png, encoding: .terrarium, of: Self.tile, as: Self.tile, pixels: 256, bearing: 90)
        var look = HillshadeLook()
        look.illuminationDirection = 335 + 90 - 360
        look.anchoredToViewport = false
        let fromEast = try TerrainTilePainter.paint(dem, tile: Self.tile, look: look)
        #expect(turned.pixels == fromEast.pixels)
        let northUp = try TerrainTilePainter.paint(png, encoding: .terrarium, of: Self.tile, as: Self.tile, pixels: 256)
        #expect(zip(turned.pixels, northUp.pixels).filter { $0 != $1 }.count > 10_000)
    }

    func styled(anchor: String?, direction: Double, bearing: Double) throws -> [UInt32] {
        let anchored = anchor.map { #", "hillshade-illumination-anchor": "\#($0)""# } ?? ""
        let s = try MapStyle(json: Data(#"""
            {"version": 8, "sources": {"dem": {"type": "raster-dem", "encoding": "terrarium", "tileSize": 256, "tiles": ["http://z/{z}/{x}/{y}.png"]}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#f0ede5"}},
                        {"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-direction": \#(direction)\#(anchored)}}]}
            """#.utf8))
        let png = try Data(contentsOf: Self.fixture)
        return try VectorTilePainter(mapStyle: s).paint(Self.tile, data: Data(), dataTile: Self.tile, pixelSize: 256, lightBearing: bearing,
                                                        pictures: [StylePicture(source: "dem", data: png, tile: Self.tile)],
                                                        decodeImage: { _ in throw TileSourceError("no pictures here") }).bitmap.pixels
    }

    @Test func aStylesHillshadeTurnsItsLightWithTheMapUnlessAnchoredToIt() throws {
        // The default anchor, the viewport: 335° on the screen of a map turned 40° is 15° on the map.
        #expect(try styled(anchor: nil, direction: 335, bearing: 40) == styled(anchor: "map", direction: 15, bearing: 0))
        #expect(try styled(anchor: "viewport", direction: 335, bearing: 40) == styled(anchor: nil, direction: 335, bearing: 40))
        #expect(try styled(anchor: nil, direction: 335, bearing: 40) != styled(anchor: nil, direction: 335, bearing: 0))
        // Anchored to the map, the light stays where it is on the map.
        #expect(try styled(anchor: "map", direction: 335, bearing: 40) == styled(anchor: "map", direction: 335, bearing: 0))
    }

    @Test func theCompassNeedleIsRedToTheNorthAndTheSolidSquareIsOneColour() throws {
        let needle = try ShapePainter.paint(.compassNeedle, pixelRatio: 2)
        #expect(needle.width == 60 && needle.height == 60)
        func red(_ rows: Range<Int>) -> Int {
            rows.reduce(0) { n, y in
                n + (0..<needle.width).filter { x in
                    let p = needle.pixels[y * needle.width + x]
                    return p >> 24 > 200 && (p >> 16) & 255 > 180 && (p >> 8) & 255 < 90
                }.count
            }
        }
        #expect(red(0..<28) > 100 && red(32..<60) == 0)
        let solid = try ShapePainter.paint(.solid(Color(hex: 0x1F5FD6)), pixelRatio: 1)
        #expect(solid.width == ShapeSprite.solidPixels && Set(solid.pixels).count == 1)
    }
}
