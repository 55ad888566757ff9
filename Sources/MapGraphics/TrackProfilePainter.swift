import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// Draws the elevation profile panel's picture with Cairo and Pango: the track's name,
/// heights on the left at round steps, distances below, the elevation filled under its line
/// in the track's colour, and speed as a dashed line on its own scale.
public enum TrackProfilePainter: SpritePainter {
    public static func paint(_ spec: TrackProfileSprite, pixelRatio k: Double) throws -> Bitmap {
        let canvas = try CairoCanvas(width: max(Int(saturating: (Double(spec.width) * k).rounded()), 1), height: max(Int(saturating: (Double(spec.height) * k).rounded()), 1))
        let cr = canvas.context
        cairo_scale(cr, k, k)
        let profile = spec.profile
        let graph = TracksLayer.profileFrames(viewport: ScreenSize(width: Double(spec.width), height: Double(spec.height))).graph
        // The sprite is the panel: its frames laid out in a viewport of its own size.
        let gx = graph.x, gy = graph.y, gw = graph.width, gh = graph.height
        let ink = Color(hex: 0x333333), faint = Color(hex: 0x000000, alpha: 0.08)
        let (dashed, dashedMode) = profile.dashed(for: spec.dashed)
        let key: String
        switch dashedMode {
        // TRANSLATORS: the key to the elevation profile's two lines, after the track's name: elevation (filled) and heart rate (a dashed line).
        case .heartRate: key = tr("elevation · heart rate (dashed)")
        // TRANSLATORS: the key to the elevation profile's two lines, after the track's name: elevation (filled) and cadence (a dashed line).
        case .cadence: key = tr("elevation · cadence (dashed)")
        // TRANSLATORS: the key to the elevation profile's two lines, after the track's name: elevation (filled) and power (a dashed line).
        case .power: key = tr("elevation · power (dashed)")
        // TRANSLATORS: the key to the elevation profile's two lines, after the track's name: elevation (filled) and speed (a dashed line).
        default: key = tr("elevation · speed (dashed)")
        }
        let title = dashed.isEmpty ? spec.title : spec.title + "   " + key
        text(title, at: (16, 8), size: 11, bold: true, color: ink, cr: cr, k: k)

        // Heights: grid lines at round steps, labelled on the left.
        let (lo, hi) = profile.elevationScale
        let unit = spec.imperial ? 0.3048 : 1.0
        let step = niceStep((hi - lo) / unit, count: 4) * unit
        for h in Ticks.multiples(of: step, from: lo, through: hi, limit: 12) {
            let y = gy + gh - (h - lo) / (hi - lo) * gh
            rect(gx, y - 0.5, gw, 1, faint, cr)
            let label = TrackStatistics.heightText(h, imperial: spec.imperial)
            text(label, at: (gx - 8, y - 7), size: 9, bold: false, color: ink, cr: cr, k: k, rightAligned: true)
        }
        // Distances below, at round steps.
        let dUnit = spec.imperial ? 1609.344 : 1000.0
        let dStep = niceStep(profile.distance / dUnit, count: 6) * dUnit
        for d in Ticks.multiples(of: dStep, from: 0, through: profile.distance + 1e-6, limit: 16) {
            let x = gx + d / profile.distance * gw
            rect(x - 0.5, gy + gh, 1, 4, ink, cr)
            let number = tick(d / dUnit, step: dStep / dUnit)
            // TRANSLATORS: a distance under the elevation profile, in miles ("2.5 mi").
            let label = d == 0 ? "0" : spec.imperial ? tr("%@ mi", number)
                // TRANSLATORS: a distance under the elevation profile, in kilometres ("4 km").
                : tr("%@ km", number)
            text(label, at: (x, gy + gh + 6), size: 9, bold: false, color: ink, cr: cr, k: k, centered: true)
        }

        // The elevation, filled down to the graph's bottom.
        let n = profile.elevation.count
        func px(_ c: Int) -> Double { gx + gw * Double(c) / Double(n - 1) }
        func py(_ e: Float) -> Double { gy + gh - (Double(e) - lo) / (hi - lo) * gh }
        cairo_new_path(cr)
        cairo_move_to(cr, px(0), gy + gh)
        for c in 0..<n where profile.elevation[c].isFinite { cairo_line_to(cr, px(c), py(profile.elevation[c])) }
        cairo_line_to(cr, px(n - 1), gy + gh)
        cairo_close_path(cr)
        cairo_set_source_rgba(cr, spec.color.r, spec.color.g, spec.color.b, 0.22)
        cairo_fill(cr)
        cairo_new_path(cr)
        var started = false
        for c in 0..<n where profile.elevation[c].isFinite {
            if started { cairo_line_to(cr, px(c), py(profile.elevation[c])) } else { cairo_move_to(cr, px(c), py(profile.elevation[c])); started = true }
        }
        cairo_set_source_rgba(cr, spec.color.r, spec.color.g, spec.color.b, 1)
        cairo_set_line_width(cr, 1.6)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(cr)

        // Speed (or the sensor), dashed, from 0 at the bottom to a little over its highest at the top.
        let highest = Double(dashed.lazy.filter(\.isFinite).max() ?? 0)
        if !dashed.isEmpty, highest > 0 {
            let top = highest * 1.1
            cairo_new_path(cr)
            started = false
            for c in 0..<n where dashed[c].isFinite {
                let y = gy + gh - Double(dashed[c]) / top * gh
                if started { cairo_line_to(cr, px(c), y) } else { cairo_move_to(cr, px(c), y); started = true }
            }
            var dashes = [4.0, 3.0]
            cairo_set_dash(cr, &dashes, 2, 0)
            cairo_set_source_rgba(cr, 0.2, 0.2, 0.25, 0.7)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }
        cairo_surface_flush(canvas.surface)
        return canvas.bitmap()
    }

    /// A tick's value with as many decimals as its step needs: "5", "2.5", "0.25".
    static func tick(_ v: Double, step: Double) -> String {
        guard v.isFinite, abs(v) < 1e12 else { return "–" }
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2
        let scale = pow(10, Double(decimals))
        let n = Int(saturating: (v * scale).rounded())
        guard decimals > 0 else { return "\(n)" }
        let frac = String(n.magnitude % UInt(saturating: scale))  // (abs of a saturated Int.min traps)
        return "\(n / Int(saturating: scale)).\(String(repeating: "0", count: decimals - frac.count) + frac)"
    }

    /// 1, 2 or 5 times a power of ten, giving about `count` steps over `range`.
    static func niceStep(_ range: Double, count: Int) -> Double {
        guard range.isFinite, range > 0 else { return 1 }
        let raw = range / Double(max(count, 1))
        let power = pow(10, (log10(raw)).rounded(.down))
        let f = raw / power
        return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power
    }

    private static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: Color, _ cr: OpaquePointer) {
        cairo_rectangle(cr, x, y, w, h)
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
        cairo_fill(cr)
    }

    /// Text with its top at `at.1`, starting at `at.0` (or ending there, or centred on it).
    private static func text(_ s: String, at: (Double, Double), size: Double, bold: Bool, color: Color, cr: OpaquePointer, k: Double,
                             rightAligned: Bool = false, centered: Bool = false) {
        cairo_save(cr)
        // Pango lays out in device pixels here (the layout's own scale): undo the scaling.
        cairo_scale(cr, 1 / k, 1 / k)
        let font = TextRasterizer.Font(family: "DejaVu Sans", size: size, weight: bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, color: color, halo: 0)
        let layout = TextRasterizer.makeLayout(cr, s, font, k)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        var x = at.0 * k
        if rightAligned { x -= Double(logical.width) } else if centered { x -= Double(logical.width) / 2 }
        cairo_move_to(cr, x, at.1 * k)
        cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
        pango_cairo_show_layout(cr, layout)
        g_object_unref(UnsafeMutableRawPointer(layout))
        cairo_restore(cr)
    }
}
