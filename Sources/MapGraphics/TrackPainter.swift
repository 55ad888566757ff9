import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry

/// How a track's line looks: its colour and width in points, over a lighter casing that
/// makes it read on any background (dark forest, blue sea, grey city).
public struct TrackStyle: Sendable, Equatable {
    public var color: Color
    public var width: Double
    public var casing: Color
    /// Points of casing on each side of the line.
    public var casingWidth: Double

    public init(color: Color, width: Double = 4, casing: Color = Color(hex: 0xFFFFFF, alpha: 0.85), casingWidth: Double = 1.5) {
        self.color = color
        self.width = width
        self.casing = casing
        self.casingWidth = casingWidth
    }
}

/// Draws tracks into a tile's picture with Cairo: only the runs of points near the tile,
/// simplified to half a device pixel at its zoom (`TrackGeometry`), so a tile of a
/// million-point track costs what the few hundred points crossing it cost.
public enum TrackPainter {
    /// Paints `tracks` (bottom first) into `canvas`, which shows `tile` at `canvas.width`
    /// device pixels (`pointScale` device pixels per point).
    public static func paint(_ tracks: [(geometry: TrackGeometry, style: TrackStyle)], tile: TileID, pointScale: Double,
                             into canvas: CairoCanvas) {
        let box = tile.mapRect
        let size = box.size.width, ox = box.minX, oy = box.minY
        let scale = Double(canvas.width) / size // device pixels per world unit
        let tolerance = 0.5 / scale
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for (geometry, style) in tracks {
            // Lines just outside the tile still reach in with their width.
            let reach = (style.width / 2 + style.casingWidth) * pointScale / scale
            let area = MapRect(x: ox - reach, y: oy - reach, width: size + 2 * reach, height: size + 2 * reach)
            guard geometry.bounds.intersects(area) else { continue }
            let lines = geometry.lines(in: area, tolerance: tolerance)
            guard !lines.isEmpty else { continue }
            cairo_new_path(cr)
            for line in lines {
                cairo_move_to(cr, (line[0].x - ox) * scale, (line[0].y - oy) * scale)
                for p in line.dropFirst() { cairo_line_to(cr, (p.x - ox) * scale, (p.y - oy) * scale) }
            }
            canvas.setColor(style.casing)
            cairo_set_line_width(cr, (style.width + 2 * style.casingWidth) * pointScale)
            cairo_stroke_preserve(cr)
            canvas.setColor(style.color)
            cairo_set_line_width(cr, style.width * pointScale)
            cairo_stroke(cr)
        }
    }
}
