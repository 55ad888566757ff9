import FoundationEssentials
import Glibc

/// A slippy-map tile: zoom, column (west→east), row (north→south), in XYZ numbering.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }

    public static let maxZoom = 22

    public var tilesAcross: Int { 1 << z }
    public var isValid: Bool { z >= 0 && z <= Self.maxZoom && x >= 0 && x < tilesAcross && y >= 0 && y < tilesAcross }

    /// The tile holding a coordinate at a zoom.
    public init(containing c: Coordinate, zoom: Int) {
        let p = WebMercator.project(c.normalized)
        let n = Double(1 << zoom)
        let scale = n / WebMercator.worldSize
        z = zoom
        x = min(Int(saturating: floor(p.x * scale)), (1 << zoom) - 1)
        y = min(max(Int(saturating: floor(p.y * scale)), 0), (1 << zoom) - 1)
    }

    /// The same tile with x wrapped into the world (a column east of the antimeridian is the west one).
    public var wrapped: TileID {
        let n = tilesAcross
        return TileID(z: z, x: ((x % n) + n) % n, y: y)
    }

    public var parent: TileID? { z > 0 ? TileID(z: z - 1, x: x >> 1, y: y >> 1) : nil }

    public func ancestor(atZoom zoom: Int) -> TileID {
        precondition(zoom <= z)
        let d = z - zoom
        return TileID(z: zoom, x: x >> d, y: y >> d)
    }

    public var children: [TileID] {
        [TileID(z: z + 1, x: 2 * x, y: 2 * y), TileID(z: z + 1, x: 2 * x + 1, y: 2 * y),
         TileID(z: z + 1, x: 2 * x, y: 2 * y + 1), TileID(z: z + 1, x: 2 * x + 1, y: 2 * y + 1)]
    }

    /// The tile's square in world units (x unwrapped: a tile at x = n lies one world east).
    public var mapRect: MapRect {
        let size = WebMercator.worldSize / Double(tilesAcross)
        return MapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    /// TMS numbering, as MBTiles stores rows (south→north).
    public var tmsY: Int { tilesAcross - 1 - y }

    public static func < (a: TileID, b: TileID) -> Bool { (a.z, a.y, a.x) < (b.z, b.y, b.x) }
    public var description: String { "\(z)/\(x)/\(y)" }
}
