import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// Draws tracks into a tile's picture with Cairo: only the runs of points near the tile,
/// simplified to half a device pixel at its zoom (`TrackGeometry`), so a tile of a
/// million-point track costs what the few hundred points crossing it cost.
public enum TrackPainter {
    /// Paints `areas` (filled, then outlined) and then `tracks`, bottom first, into `canvas`,
    /// which shows `tile` at `canvas.width` device pixels (`pointScale` device pixels per
    /// point). A track with `values` (one per point) is coloured by them on `ramp`.
    public static func paint(_ tracks: [(geometry: TrackGeometry, style: TrackStyle, values: [Float])], areas: [AreaShape] = [],
                             ramp: TrackColorRamp? = nil, tile: TileID, pointScale: Double, into canvas: CairoCanvas) {
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
        for (geometry, style, values) in tracks {
            // Lines just outside the tile still reach in with their width.
            let area = box.outset(by: style.reach * pointScale / scale)
            guard geometry.bounds.intersects(area) else { continue }
            let runs = geometry.runs(in: area, tolerance: tolerance)
            guard !runs.isEmpty else { continue }
            let pts = geometry.points
            func to(_ i: Int) -> (Double, Double) { ((pts[i].x - ox) * scale, (pts[i].y - oy) * scale) }
            cairo_new_path(cr)
            for run in runs {
                let (x, y) = to(run[0])
                cairo_move_to(cr, x, y)
                for i in run.dropFirst() { let (x, y) = to(i); cairo_line_to(cr, x, y) }
            }
            canvas.setColor(style.casing)
            cairo_set_line_width(cr, (style.width + 2 * style.casingWidth) * pointScale)
            guard let ramp, values.count == pts.count else {
                cairo_stroke_preserve(cr)
                canvas.setColor(style.color)
                cairo_set_line_width(cr, style.width * pointScale)
                cairo_stroke(cr)
                continue
            }
            cairo_stroke(cr)
            paintColored(runs, values: values, ramp: ramp, width: style.width * pointScale, to: to, cr: cr, canvas: canvas)
        }
    }

    /// Steps of the ramp a coloured line is drawn in: neighbours in the same step are one
    /// stroke, so a tile costs a few strokes rather than one per edge.
    static let rampSteps = 24

    /// Each stretch in the colour of its points' values. The simplified line alone would lose
    /// where the colour changes (a straight road driven slow, fast, slow is one edge), so the
    /// points dropped between kept ones are walked too, and one becomes a vertex where the
    /// colour changes, a device pixel or more from the last vertex.
    private static func paintColored(_ runs: [[Int]], values: [Float], ramp: TrackColorRamp, width: Double,
                                     to: (Int) -> (Double, Double), cr: OpaquePointer, canvas: CairoCanvas) {
        cairo_set_line_width(cr, width)
        func step(_ i: Int) -> Int {
            let f = ramp.fraction(Double(values[i]))
            return f.isFinite ? min(Int(saturating: f * Double(rampSteps)), rampSteps - 1) : -1
        }
        func stroke(_ s: Int) {
            canvas.setColor(TrackColorRamp.color(at: s < 0 ? .nan : (Double(s) + 0.5) / Double(rampSteps)))
            cairo_stroke(cr)
        }
        for run in runs where run.count >= 2 {
            var current = step(run[0])
            var (lx, ly) = to(run[0])
            cairo_move_to(cr, lx, ly)
            for (a, b) in zip(run, run.dropFirst()) where b > a {
                for k in (a + 1)...b {
                    let s = step(k)
                    guard k == b || s != current else { continue }
                    let (x, y) = to(k)
                    guard k == b || (x - lx) * (x - lx) + (y - ly) * (y - ly) >= 1 else { continue }
                    cairo_line_to(cr, x, y)
                    (lx, ly) = (x, y)
                    if s != current {
                        stroke(current)
                        cairo_move_to(cr, x, y)
                        current = s
                    }
                }
            }
            stroke(current)
        }
    }
}
