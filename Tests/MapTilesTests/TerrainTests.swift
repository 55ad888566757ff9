import Foundation
import MapCore
import MapGeometry
@testable import MapTiles
import Testing

/// Terrain from DEM tiles: both encodings decoded to the metre; a real DEM (the North Shore
/// mountains above Vancouver, Tests/Fixtures/dem) shaded with the light from the
/// north-north-west, slopes facing it brighter than slopes facing away and flat water left
/// clear; contour lines at the right heights, on a known slope and on the real one; and
/// hostile tiles refused with a reason, NaN heights never reaching the shading.
struct TerrainTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dem/terrarium-12-646-1400.png")
    static let tile = TileID(z: 12, x: 646, y: 1400)

    static func northShore() throws -> DEMTile { try DEMTile(png: try Data(contentsOf: fixture), encoding: .terrarium) }

    /// A tile whose height is `h(x, y)` at each pixel centre.
    static func plane(_ n: Int = 64, _ h: (Double, Double) -> Double) throws -> DEMTile {
        try DEMTile(size: n, heights: (0..<n * n).map { Float(h(Double($0 % n), Double($0 / n))) })
    }

    @Test func theRealTileDecodesToTheMetre() throws {
        let dem = try Self.northShore()
        #expect(dem.size == 256)
        #expect(abs(dem.height(0, 0) - 1049.004) < 0.001 && abs(dem.height(128, 128) - 438.535) < 0.001 && abs(dem.height(255, 255) - 13.191) < 0.001)
        #expect(abs(dem.heights.min()! - -3.609) < 0.001 && abs(dem.heights.max()! - 1062.215) < 0.001)
    }

    @Test func bothEncodingsDecode() throws {
        // 1,000 m: terrarium 33768 = 131·256 + 232; Terrain-RGB 110000 = 1·65536 + 173·256 + 176.
        let terrarium = try DEMTile(rgba: [UInt8](repeating: 0, count: 0) + (0..<4).flatMap { _ in [131, 232, 0, 255] as [UInt8] }, width: 2, height: 2, encoding: .terrarium)
        let mapbox = try DEMTile(rgba: (0..<4).flatMap { _ in [1, 173, 176, 255] as [UInt8] }, width: 2, height: 2, encoding: .mapbox)
        #expect(terrarium.heights == [1000, 1000, 1000, 1000])
        #expect(mapbox.heights.allSatisfy { abs($0 - 1000) < 0.01 })
    }

    /// Un-premultiplied brightness (0…1) and opacity of a shaded pixel.
    static func look(_ b: Bitmap, _ x: Int, _ y: Int) -> (light: Double, alpha: Double) {
        let p = b.pixels[y * b.width + x], a = Double(p >> 24) / 255
        guard a > 0 else { return (0, 0) }
        let sum = Double((p >> 16) & 255) + Double((p >> 8) & 255) + Double(p & 255)
        return (sum / 3 / 255 / a, a)
    }

    /// With the light from the north-west, a slope facing north-west is lit and one facing
    /// south-east is in shadow; flat ground is not shaded at all.
    @Test func aSlopeFacingTheLightIsBrighterThanOneFacingAway() throws {
        var look = HillshadeLook()
        look.illuminationDirection = 315
        // Rising to the south-east (x east, y south): it faces north-west. And the reverse.
        let facesNW = Hillshade.shade(try Self.plane { x, y in 3 * (x + y) }, tile: Self.tile, look: look)
        let facesSE = Hillshade.shade(try Self.plane { x, y in -3 * (x + y) }, tile: Self.tile, look: look)
        let flat = Hillshade.shade(try Self.plane { _, _ in 500 }, tile: Self.tile, look: look)
        let nw = Self.look(facesNW, 30, 30), se = Self.look(facesSE, 30, 30)
        #expect(nw.light > 0.95 && se.light < 0.05, "\(nw) \(se)")
        #expect(nw.alpha > 0.05 && abs(nw.alpha - se.alpha) < 0.01, "as steep, as opaque")
        #expect(flat.pixels.allSatisfy { $0 == 0 }, "flat ground is left clear")
        // Turned with the map (a viewport light and a bearing of 180°), the light comes from the south-east.
        let turned = Hillshade.shade(try Self.plane { x, y in -3 * (x + y) }, tile: Self.tile, look: look, bearing: 180)
        #expect(Self.look(turned, 30, 30).light > 0.95)
    }

    /// The real mountains: pixels whose slope faces the default light (335°, within 45°) are
    /// brighter on average than those facing away, and water is clear.
    @Test func theNorthShoreIsShadedFromTheNorthNorthWest() throws {
        let dem = try Self.northShore()
        let shaded = Hillshade.shade(dem, tile: Self.tile)
        var toward = [Double](), away = [Double]()
        for y in 1..<255 { for x in 1..<255 {
            let east = Double(dem.height(x + 1, y) - dem.height(x - 1, y)), north = Double(dem.height(x, y - 1) - dem.height(x, y + 1))
            guard (east * east + north * north).squareRoot() > 20 else { continue }
            // The way downhill, clockwise from north.
            var facing = atan2(-east, -north) * 180 / .pi
            if facing < 0 { facing += 360 }
            let fromLight = abs(((facing - 335 + 540).truncatingRemainder(dividingBy: 360)) - 180)
            if fromLight < 45 { toward.append(Self.look(shaded, x, y).light) } else if fromLight > 135 { away.append(Self.look(shaded, x, y).light) }
        } }
        #expect(toward.count > 500 && away.count > 500, "\(toward.count) \(away.count)")
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(1, v.count)) }
        #expect(mean(toward) > 0.8 && mean(away) < 0.2, "\(mean(toward)) \(mean(away))")
        // The water (Burrard Inlet, the Capilano reservoir) is level: left clear.
        var level = 0
        for y in 1..<255 { for x in 1..<255 {
            let around = (-1...1).flatMap { j in (-1...1).map { i in dem.height(x + i, y + j) } }
            guard around.max()! - around.min()! < 0.01 else { continue }
            level += 1
            #expect(shaded.pixels[y * 256 + x] == 0, "level ground at \(x), \(y) is shaded")
        } }
        #expect(level > 1000)
    }

    /// On a slope rising 10 m a pixel to the east, the 100 m line runs north–south through
    /// the pixel centre where the height is 100 (x 10.5), the whole height of the tile.
    @Test func contoursOfAKnownSlope() throws {
        let lines = Contours.lines(try Self.plane { x, _ in 10 * x }, interval: 100)
        // Heights 0…630: every 100 m from 100 to 600 (the lowest height, 0, is an edge, not a line).
        #expect(lines.map(\.level) == [100, 200, 300, 400, 500, 600])
        let hundred = try #require(lines.first { $0.level == 100 })
        #expect(hundred.points.allSatisfy { abs($0.x - 10.5) < 1e-9 })
        #expect(Set(hundred.points.map(\.y)).count == 64 && hundred.points.map(\.y).min() == 0.5 && hundred.points.map(\.y).max() == 63.5)
    }

    /// On the real tile every point of every 100 m line lies at its height (interpolated
    /// between the pixel centres around it), and the lines are whole: 1,000 m exists.
    @Test func contoursOfTheNorthShoreLieAtTheirHeights() throws {
        let dem = try Self.northShore()
        let lines = Contours.lines(dem, interval: 100)
        #expect(Set(lines.map(\.level)) == Set(stride(from: 0.0, through: 1000, by: 100)))
        func height(_ x: Double, _ y: Double) -> Double {
            let gx = x - 0.5, gy = y - 0.5, x0 = Int(gx.rounded(.down)), y0 = Int(gy.rounded(.down))
            let tx = gx - Double(x0), ty = gy - Double(y0)
            func h(_ x: Int, _ y: Int) -> Double { Double(dem.height(x, y)) }
            return (h(x0, y0) * (1 - tx) + h(x0 + 1, y0) * tx) * (1 - ty) + (h(x0, y0 + 1) * (1 - tx) + h(x0 + 1, y0 + 1) * tx) * ty
        }
        var points = 0
        for line in lines { for p in line.points {
            #expect(abs(height(p.x, p.y) - line.level) < 0.01, "\(p) on \(line.level)")
            points += 1
        } }
        #expect(points > 2000)
    }

    @Test("Hostile DEM tiles are refused with a reason", arguments: [
        (Data([0x89, 0x50]), "not a PNG"),
        (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "no header"),
    ])
    func hostileTiles(bytes: Data, reason: String) {
        #expect { try DEMTile(png: bytes, encoding: .terrarium) } throws: { "\($0)".contains(reason) }
    }

    @Test func wrongShapesAndNaNHeights() throws {
        #expect { try DEMTile(rgba: [UInt8](repeating: 0, count: 3 * 2 * 4), width: 3, height: 2, encoding: .mapbox) } throws: { "\($0)".contains("square") }
        #expect { try DEMTile(size: 4, heights: [1, 2, 3]) } throws: { "\($0)".contains("needs 16 heights") }
        let holed = try DEMTile(size: 2, heights: [.nan, 5, .infinity, 1e9])
        #expect(holed.heights == [0, 5, 0, 0])
        #expect(Hillshade.shade(holed, tile: Self.tile).pixels.count == 4)
        // A 16-bit PNG (the fixture's header edited): said so, not misread.
        var png = try Data(contentsOf: Self.fixture)
        png[24] = 16
        #expect { try DEMTile(png: png, encoding: .terrarium) } throws: { "\($0)".contains("8-bit RGB") }
        // Truncated: said so.
        let whole = try Data(contentsOf: Self.fixture)
        #expect(throws: DEMError.self) { try DEMTile(png: whole.prefix(whole.count / 2), encoding: .terrarium) }
    }

    /// Beyond the DEM's deepest zoom a tile's heights come from its ancestor's, interpolated:
    /// on a plane they are the plane's, and on the real tile a quarter's corners match.
    @Test func aDescendantsHeightsAreInterpolatedFromItsAncestor() throws {
        let plane = try Self.plane(64) { x, y in 5 * x + 2 * y }
        let own = TileID(z: 10, x: 4, y: 6), child = TileID(z: 12, x: 17, y: 25) // the quarter of a quarter at (1, 1)
        let region = try #require(plane.region(of: own, for: child, size: 64))
        // Sample i, j of the child sits at ancestor pixel 16 + (i + 0.5)/4 − 0.5 (grid of centres).
        for (i, j) in [(10, 10), (40, 20), (63, 63)] {
            let gx = 16 + (Double(i) + 0.5) / 4 - 0.5, gy = 16 + (Double(j) + 0.5) / 4 - 0.5
            #expect(abs(Double(region.height(i, j)) - (5 * gx + 2 * gy)) < 0.01, "\(i), \(j)")
        }
        #expect(plane.region(of: own, for: TileID(z: 12, x: 0, y: 0), size: 64) == nil, "not under it")
        let dem = try Self.northShore()
        let quarter = try #require(dem.region(of: Self.tile, for: TileID(z: 13, x: 1292, y: 2800), size: 256))
        #expect(abs(quarter.height(128, 128) - dem.height(64, 64)) < 30, "the middle of the north-west quarter")
    }
}
