import CCairo
import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Testing

/// The terrain tile of the North Shore fixture as a hiker's map draws it: contour lines in
/// brown where the slopes are (none on level water), index lines labelled, none at all far
/// out; the picture kept in the temporary folder to look at.
struct TerrainTilePainterTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dem/terrarium-12-646-1400.png")

    /// Pixels of `b` whose colour is the contours' brown (un-premultiplied, near it).
    static func brown(_ b: Bitmap) -> Int {
        let c = TerrainTilePainter.contourColor
        return b.pixels.filter { p in
            let a = Double(p >> 24) / 255
            guard a > 0.3 else { return false }
            let r = Double((p >> 16) & 255) / 255 / a, g = Double((p >> 8) & 255) / 255 / a, bl = Double(p & 255) / 255 / a
            return abs(r - c.r) < 0.12 && abs(g - c.g) < 0.12 && abs(bl - c.b) < 0.12
        }.count
    }

    @Test func contoursAreDrawnOverTheShadingAtHikingZooms() throws {
        let dem = try DEMTile(png: try Data(contentsOf: Self.fixture), encoding: .terrarium)
        let tile = TileID(z: 12, x: 646, y: 1400)
        let plain = try TerrainTilePainter.paint(dem, tile: tile, contours: false)
        let drawn = try TerrainTilePainter.paint(dem, tile: tile)
        #expect(Self.brown(plain) == 0)
        // z12: a line every 50 m over 1,060 m of mountain: many brown pixels.
        #expect(Self.brown(drawn) > 600, "\(Self.brown(drawn))")
        // Level water stays clear of lines and shading (the inlet at 32, 190).
        #expect(drawn.pixels[190 * 256 + 32] == 0)
        // Far out, the shading only.
        #expect(try TerrainTilePainter.paint(dem, tile: TileID(z: 8, x: 40, y: 87)).pixels == Hillshade.shade(dem, tile: TileID(z: 8, x: 40, y: 87)).pixels)
        // Kept for looking at: over white, as on a light map.
        var copy = drawn
        copy.pixels = copy.pixels.map { p in
            let a = p >> 24, inv = 255 - a
            func ch(_ s: UInt32) -> UInt32 { min(255, ((p >> s) & 255) + inv) << s }
            return 0xFF00_0000 | ch(16) | ch(8) | ch(0)
        }
        let path = NSTemporaryDirectory() + "meridian-terrain-12-646-1400.png"
        try copy.pixels.withUnsafeMutableBytes { raw in
            let surface = cairo_image_surface_create_for_data(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, 256, 256, 1024)
            defer { cairo_surface_destroy(surface) }
            #expect(cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS)
        }
    }
}
