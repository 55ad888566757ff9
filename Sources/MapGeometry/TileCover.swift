import FoundationEssentials
import Glibc

/// Which tiles a viewport needs.
public enum TileCover {
    /// The integer zoom whose tiles are drawn at a fractional zoom. Rounding (rather than
    /// flooring) keeps tiles between 0.71× and 1.41× their native size, so text stays legible.
    public static func tileZoom(forZoom zoom: Double, minZoom: Int = 0, maxZoom: Int) -> Int {
        min(max(Int(saturating: zoom.rounded()), minZoom), maxZoom)
    }

    /// Tiles at `tileZoom` intersecting `rect` (world units), plus `buffer` rings around them.
    /// X is left unwrapped so a view across the antimeridian gets columns beyond the world's edge;
    /// rows outside the world are dropped. Ordered from the rect's centre outwards so that the
    /// loader fetches what the user looks at first.
    public static func tiles(covering rect: MapRect, tileZoom z: Int, buffer: Int = 0) -> [TileID] {
        let n = 1 << z
        let s = span(covering: rect, tileZoom: z)
        let (x0, x1) = (s.x0 - buffer, s.x1 + buffer)
        let y0 = max(s.y0 - buffer, 0), y1 = min(s.y1 + buffer, n - 1)
        guard x1 >= x0, y1 >= y0 else { return [] }
        // A zoomed-out view wider than the world needs each column at most a few times.
        var tiles: [TileID] = []
        tiles.reserveCapacity((x1 - x0 + 1) * (y1 - y0 + 1))
        for y in y0...y1 { for x in x0...x1 { tiles.append(TileID(z: z, x: x, y: y)) } }
        let c = rect.center
        func d(_ t: TileID) -> Double {
            let r = t.mapRect
            let dx = r.midX - c.x, dy = r.midY - c.y
            return dx * dx + dy * dy
        }
        return tiles.sorted { d($0) < d($1) }
    }

    /// The columns and rows of tiles at `tileZoom` that `rect` touches, first to last, rows
    /// not cut to the world's: two rects with the same span have the same tiles and the
    /// same edges of the world in view.
    public struct Span: Hashable, Sendable {
        public let z: Int, x0: Int, x1: Int, y0: Int, y1: Int
    }

    public static func span(covering rect: MapRect, tileZoom z: Int) -> Span {
        let size = WebMercator.worldSize / Double(1 << z)
        return Span(z: z, x0: Int(saturating: floor(rect.minX / size)), x1: Int(saturating: ceil(rect.maxX / size)) - 1,
                    y0: Int(saturating: floor(rect.minY / size)), y1: Int(saturating: ceil(rect.maxY / size)) - 1)
    }
}
