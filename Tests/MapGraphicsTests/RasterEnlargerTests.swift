import Foundation
import MapGeometry
import MapGraphics
import MapTiles
import Testing

/// A raster tile beyond its source's deepest zoom is the part of the deepest ancestor under
/// it, enlarged to a whole tile.
struct RasterEnlargerTests {
    /// 256 px, four colours in its quarters: red, green (top); blue, white (bottom).
    let quarters: Bitmap = {
        var px = [UInt32](repeating: 0, count: 256 * 256)
        for y in 0..<256 { for x in 0..<256 {
            px[y * 256 + x] = y < 128 ? (x < 128 ? 0xFFFF_0000 : 0xFF00_FF00) : (x < 128 ? 0xFF00_00FF : 0xFFFF_FFFF)
        } }
        return Bitmap(width: 256, height: 256, pixels: px, premultiplied: true)
    }()

    @Test(arguments: [(2, 2, 0xFFFF_0000), (3, 2, 0xFF00_FF00), (2, 3, 0xFF00_00FF), (3, 3, 0xFFFF_FFFF)] as [(Int, Int, UInt32)])
    func eachChildIsItsQuarterEnlarged(x: Int, y: Int, color: UInt32) throws {
        let out = try RasterEnlarger.enlarge(quarters, of: TileID(z: 1, x: 1, y: 1), to: TileID(z: 2, x: x, y: y), pixels: 256)
        #expect(out.width == 256 && out.height == 256)
        // The middle of the child and near its edges (away from the quarter's border) are the quarter's colour.
        for (px, py) in [(128, 128), (10, 10), (245, 245)] {
            #expect(out.pixel(x: px, y: py) == color, "child \(x),\(y) at \(px),\(py): \(String(out.pixel(x: px, y: py), radix: 16))")
        }
    }

    @Test func aGrandchildIsAQuarterOfAQuarter() throws {
        // z3 (4,0) lies in the ancestor z1 (1,0)'s top-left quarter's top-left: red.
        let out = try RasterEnlarger.enlarge(quarters, of: TileID(z: 1, x: 1, y: 0), to: TileID(z: 3, x: 4, y: 0), pixels: 512)
        #expect(out.width == 512 && out.pixel(x: 256, y: 256) == 0xFFFF_0000)
        // Not a descendant: the picture as it is.
        let same = try RasterEnlarger.enlarge(quarters, of: TileID(z: 1, x: 1, y: 0), to: TileID(z: 3, x: 0, y: 0), pixels: 256)
        #expect(same.pixels == quarters.pixels)
    }
}
