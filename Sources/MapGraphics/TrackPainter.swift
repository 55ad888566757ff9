import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry

/// Draws tracks into a tile's picture with Cairo: only the runs of points near the tile,
/// simplified to half a device pixel at its zoom (`TrackGeometry`), so a tile of a
/// million-point track costs what the few hundred points crossing it cost.
public enum TrackPainter {
    /// Paints `areas` (filled, then outlined) and then `tracks`, bottom first, into `canvas`,
    /// which shows `tile` at `canvas.width` device pixels (`pointScale` device pixels per
    /// point).
    public static func paint(_ tracks: [(geometry: TrackGeometry, style: TrackStyle)], areas: [AreaShape] = [], tile: TileID,
                             pointScale: Double, into canvas: CairoCanvas) {
        let box = tile.mapRect
        let size = box.size.width, ox = box.minX, oy = box.minY
        let scale = Double(canvas.width) / size // device pixels per world unit
        let tolerance = 0.5 / scale
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for shape in areas {
            guard shape.geometry.bounds.intersects(box.outset(by: shape.stroke.reach * pointScale / scale)) else { continue }
            cairo_new_path(cr)
            for ring in shape.geometry.rings where ring.count >= 3 {
                cairo_move_to(cr, (ring[0].x - ox) * scale, (ring[0].y - oy) * scale)
                for p in ring.dropFirst() { cairo_line_to(cr, (p.x - ox) * scale, (p.y - oy) * scale) }
                cairo_close_path(cr)
            }
            // Holes are rings of the same path: even-odd leaves them open whatever their winding.
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            canvas.setColor(shape.fill)
            cairo_fill_preserve(cr)
            canvas.setColor(shape.stroke.color)
            cairo_set_line_width(cr, shape.stroke.width * pointScale)
            cairo_stroke(cr)
        }
        for (geometry, style) in tracks {
            // Lines just outside the tile still reach in with their width.
            let area = box.outset(by: style.reach * pointScale / scale)
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
