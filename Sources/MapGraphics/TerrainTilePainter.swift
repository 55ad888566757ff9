import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// A terrain tile as a hiker's map draws it: the hillshading of a DEM tile, and over it contour
/// lines above the sea at an interval that suits the zoom, every fifth (the index contours)
/// stronger and, where long enough, labelled with its height along the line, upright.
public enum TerrainTilePainter {
    /// The contour interval and index interval at a zoom (metres); nil: no contours (too far out).
    public static func intervals(zoom: Int) -> (line: Double, index: Double)? {
        switch zoom {
        case 15...: return (10, 50)
        case 13...14: return (20, 100)
        case 11...12: return (50, 250)
        case 9...10: return (100, 500)
        default: return nil
        }
    }

    public static let contourColor = Color(hex: 0x8B5A2B)

    /// The tile `tile` drawn from the DEM tile `data` of `dataTile`: itself, or an ancestor
    /// beyond the DEM's deepest zoom, whose heights under `tile` are interpolated to 256
    /// pixels and shaded and traced at `tile`'s own zoom (crisp lines at its interval, not an
    /// enlarged picture). Lit from the viewport (the default of a style's hillshading): from
    /// the north-north-west of the screen, so on a map turned to `bearing`, from that much
    /// further round.
    public static func paint(_ data: Data, encoding: DEMTile.Encoding, of dataTile: TileID, as tile: TileID, pixels: Int,
                             bearing: Double = 0) throws -> Bitmap {
        let dem = try DEMTile(png: data, encoding: encoding)
        return try drawn(dem, of: dataTile, as: tile) { try paint($0, tile: tile, bearing: bearing) }
    }

    /// Only the hillshading of `tile` from `dem`, the heights of `dataTile` (itself or an
    /// ancestor), lit as `look` says: a style's hillshade layer (its light turned with the
    /// map's `bearing` when anchored to the viewport).
    public static func shade(_ dem: DEMTile, of dataTile: TileID, as tile: TileID, look: HillshadeLook, bearing: Double = 0) throws -> Bitmap {
        try drawn(dem, of: dataTile, as: tile) { try paint($0, tile: tile, look: look, contours: false, bearing: bearing) }
    }

    /// `draw` of `dem` itself when it is `tile`'s; else of the heights under `tile` at 256
    /// pixels with a pixel more all round (slopes at the edge are found as inside), which is
    /// cut off after.
    private static func drawn(_ dem: DEMTile, of dataTile: TileID, as tile: TileID, _ draw: (DEMTile) throws -> Bitmap) throws -> Bitmap {
        guard dataTile != tile else { return try draw(dem) }
        guard let region = dem.region(of: dataTile, for: tile, size: 256, border: 1) else {
            // TRANSLATORS: two tiles (zoom/x/y); a DEM tile holds the ground's heights.
            throw DEMError(tr("the DEM tile %@ does not cover %@", dataTile, tile))
        }
        let bordered = try draw(region)
        let n = bordered.width
        var inner = [UInt32](repeating: 0, count: 256 * 256)
        for y in 0..<256 { for x in 0..<256 { inner[y * 256 + x] = bordered.pixels[(y + 1) * n + x + 1] } }
        return Bitmap(width: 256, height: 256, pixels: inner, premultiplied: true)
    }

    /// The tile `tile` drawn from `dem` with `look`, contours at `intervals(zoom:)`, on a map
    /// turned to `bearing`.
    public static func paint(_ dem: DEMTile, tile: TileID, look: HillshadeLook = HillshadeLook(), contours: Bool = true,
                             bearing: Double = 0) throws -> Bitmap {
        var shaded = Hillshade.shade(dem, tile: tile, look: look, bearing: bearing)
        guard contours, let every = intervals(zoom: tile.z) else { return shaded }
        let n = dem.size
        // Above the sea only: the coast is the map's to draw, and the sea's noise near 0 m
        // would draw it as a frayed line.
        let lines = Contours.lines(dem, interval: every.line).filter { $0.level > 0 }
        try shaded.pixels.withUnsafeMutableBytes { raw in
            guard let canvas = CairoCanvas(wrapping: raw.baseAddress!, width: n, height: n) else { throw CairoError(description: tr("cannot draw contours on a %@-pixel tile", n)) }
            let cr = canvas.context
            let k = Double(n) / 256
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            for index in [false, true] {
                cairo_new_path(cr)
                for line in lines where isIndex(line.level, every.index) == index {
                    guard let first = line.points.first else { continue }
                    cairo_move_to(cr, first.x, first.y)
                    for p in line.points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                }
                canvas.setColor(contourColor.withAlpha(index ? 0.75 : 0.45))
                cairo_set_line_width(cr, (index ? 1.1 : 0.6) * k)
                cairo_stroke(cr)
            }
            labels(lines.filter { isIndex($0.level, every.index) }, on: canvas, scale: k)
        }
        return shaded
    }

    /// A line's length in pixels.
    static func length(_ line: Contours.Line) -> Double {
        zip(line.points, line.points.dropFirst()).reduce(0) { $0 + (($1.1.x - $1.0.x) * ($1.1.x - $1.0.x) + ($1.1.y - $1.0.y) * ($1.1.y - $1.0.y)).squareRoot() }
    }

    static func isIndex(_ level: Double, _ every: Double) -> Bool {
        abs(level / every - (level / every).rounded()) < 1e-6
    }

    /// Each index line long enough gets its height once, at its middle, along the line and
    /// upright, on a gap cut into the line (the text's halo in the map's colour is the gap).
    private static func labels(_ lines: [Contours.Line], on canvas: CairoCanvas, scale k: Double) {
        let cr = canvas.context
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 9 * k)
        for line in lines where length(line) >= 60 * k {
            // TRANSLATORS: a contour line's height on the map, in metres ("300 m").
            let text = tr("%@ m", Int(saturating: line.level.rounded()))
            var ext = cairo_text_extents_t()
            cairo_text_extents(cr, text, &ext)
            // The middle piece, its direction from its neighbours a few points apart.
            let mid = line.points.count / 2
            let a = line.points[max(0, mid - 4)], b = line.points[min(line.points.count - 1, mid + 4)], p = line.points[mid]
            var angle = atan2(b.y - a.y, b.x - a.x)
            if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
            // Not too near the tile's edge, where the next tile would cut it.
            let margin = ext.width / 2 + 4 * k
            guard p.x > margin, p.y > margin, p.x < Double(canvas.width) - margin, p.y < Double(canvas.height) - margin else { continue }
            cairo_save(cr)
            cairo_translate(cr, p.x, p.y)
            cairo_rotate(cr, angle)
            cairo_move_to(cr, -ext.width / 2 - ext.x_bearing, -ext.height / 2 - ext.y_bearing)
            cairo_text_path(cr, text)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
            cairo_set_line_width(cr, 2.5 * k)
            cairo_stroke_preserve(cr)
            canvas.setColor(contourColor)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }
}
