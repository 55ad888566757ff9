import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// The pin, its shadow, its ground mark and its callout, drawn with Cairo at the density they
/// are shown at, once per colour (or per text, for callouts).
public enum PinSprites {
    /// A classic pin: a glossy round head on a steel needle whose tip is the bottom centre.
    public static func pin(_ color: Color, pixelRatio k: Double) throws -> Bitmap {
        let size = Pin.imageSize
        let canvas = try CairoCanvas(width: Int(saturating: (size.width * k).rounded()), height: Int(saturating: (size.height * k).rounded()))
        cairo_scale(canvas.context, k, k)
        drawPin(canvas.context, color)
        return canvas.bitmap()
    }

    /// Draws the pin into `cr` in its own space, `Pin.imageSize` points with the tip at the
    /// bottom centre: the map's sprites and the application icon share this drawing.
    public static func drawPin(_ cr: OpaquePointer, _ color: Color) {
        let size = Pin.imageSize
        let cx = size.width / 2, headY = 10.0, r = 8.5
        // Needle: a dark edge under a light steel line, tapering to the tip.
        cairo_move_to(cr, cx - 1.3, headY + r - 2)
        cairo_line_to(cr, cx + 1.3, headY + r - 2)
        cairo_line_to(cr, cx + 0.25, size.height)
        cairo_line_to(cr, cx - 0.25, size.height)
        cairo_close_path(cr)
        let steel = cairo_pattern_create_linear(cx - 1.3, 0, cx + 1.3, 0)!
        cairo_pattern_add_color_stop_rgb(steel, 0, 0.42, 0.43, 0.46)
        cairo_pattern_add_color_stop_rgb(steel, 0.45, 0.86, 0.87, 0.89)
        cairo_pattern_add_color_stop_rgb(steel, 1, 0.36, 0.37, 0.4)
        cairo_set_source(cr, steel)
        cairo_fill(cr)
        cairo_pattern_destroy(steel)
        // Head: the colour, lit from the upper left, with a darker rim.
        cairo_arc(cr, cx, headY, r, 0, 2 * .pi)
        let shade = cairo_pattern_create_radial(cx - 3, headY - 3.5, 0.5, cx, headY, r)!
        cairo_pattern_add_color_stop_rgb(shade, 0, min(color.r + 0.45, 1), min(color.g + 0.45, 1), min(color.b + 0.45, 1))
        cairo_pattern_add_color_stop_rgb(shade, 0.45, color.r, color.g, color.b)
        cairo_pattern_add_color_stop_rgb(shade, 1, color.r * 0.72, color.g * 0.72, color.b * 0.72)
        cairo_set_source(cr, shade)
        cairo_fill_preserve(cr)
        cairo_pattern_destroy(shade)
        cairo_set_source_rgba(cr, color.r * 0.55, color.g * 0.55, color.b * 0.55, 0.9)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        // A small specular highlight.
        cairo_arc(cr, cx - 2.8, headY - 3, 2.1, 0, 2 * .pi)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.75)
        cairo_fill(cr)
    }

    /// A soft, slanted ellipse falling to the right of the tip.
    public static func shadow(pixelRatio k: Double) throws -> Bitmap {
        let size = Pin.shadowSize, tip = Pin.shadowTip
        let canvas = try CairoCanvas(width: Int(saturating: (size.width * k).rounded()), height: Int(saturating: (size.height * k).rounded()))
        let cr = canvas.context
        cairo_scale(cr, k, k)
        cairo_save(cr)
        // An ellipse: a unit circle, squashed, centred a little right of the tip.
        cairo_translate(cr, tip.x + 5, tip.y)
        cairo_scale(cr, 1, 0.38)
        let g = cairo_pattern_create_radial(0, 0, 0, 0, 0, 13)!
        cairo_pattern_add_color_stop_rgba(g, 0, 0, 0, 0, 0.38)
        cairo_pattern_add_color_stop_rgba(g, 0.5, 0, 0, 0, 0.2)
        cairo_pattern_add_color_stop_rgba(g, 1, 0, 0, 0, 0)
        cairo_set_source(cr, g)
        cairo_arc(cr, 0, 0, 13, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_pattern_destroy(g)
        cairo_restore(cr)
        return canvas.bitmap()
    }

    /// Where a carried pin will land: a small dark ring with a white outline and a centre dot.
    public static func groundMark(pixelRatio k: Double) throws -> Bitmap {
        let side = Pin.groundMarkSize
        let canvas = try CairoCanvas(width: Int(saturating: (side * k).rounded()), height: Int(saturating: (side * k).rounded()))
        let cr = canvas.context
        cairo_scale(cr, k, k)
        let c = side / 2
        cairo_arc(cr, c, c, c - 1.5, 0, 2 * .pi)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_set_line_width(cr, 3)
        cairo_stroke_preserve(cr)
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, 0.85)
        cairo_set_line_width(cr, 1.3)
        cairo_stroke(cr)
        cairo_arc(cr, c, c, 1.4, 0, 2 * .pi)
        cairo_fill(cr)
        return canvas.bitmap()
    }

    /// A bubble for crowded pins: a red disc with a white ring and the count in bold white,
    /// larger for larger counts.
    public static func cluster(_ label: String, pixelRatio k: Double) throws -> Bitmap {
        let d = label.count <= 2 ? 24.0 : label.count <= 3 ? 28.0 : 34.0
        let canvas = try CairoCanvas(width: Int(saturating: ((d + 4) * k).rounded()), height: Int(saturating: ((d + 4) * k).rounded()))
        let cr = canvas.context
        cairo_scale(cr, k, k)
        let c = (d + 4) / 2
        cairo_arc(cr, c, c + 0.8, d / 2 + 1.2, 0, 2 * .pi)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.18)
        cairo_fill(cr)
        cairo_arc(cr, c, c, d / 2, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
        cairo_arc(cr, c, c, d / 2 - 2, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 0.93, 0.22, 0.17)
        cairo_fill(cr)
        let font = TextRasterizer.Font(family: "DejaVu Sans", size: label.count <= 3 ? 11 : 10, weight: PANGO_WEIGHT_BOLD, color: Color(hex: 0xFFFFFF), halo: 0)
        let l = TextRasterizer.makeLayout(cr, label, font, 1)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(l, &ink, &logical)
        cairo_move_to(cr, c - Double(logical.width) / 2, c - Double(logical.height) / 2)
        cairo_set_source_rgb(cr, 1, 1, 1)
        pango_cairo_show_layout(cr, l)
        return canvas.bitmap()
    }

    /// The callout: a white rounded bubble with a soft shadow and an arrow, the title in bold
    /// (ellipsized when long, with a caret while it is being typed) over the coordinates.
    public static func callout(title: String, detail: String, editing mode: CalloutEditing, pixelRatio k: Double) throws -> Bitmap {
        let titleFont = TextRasterizer.Font(family: "DejaVu Sans", size: 13, weight: PANGO_WEIGHT_BOLD, color: Color(hex: 0x1C1C1E), halo: 0)
        let detailFont = TextRasterizer.Font(family: "DejaVu Sans", size: 10.5, weight: PANGO_WEIGHT_NORMAL, color: Color(hex: 0x6C6C70), halo: 0)
        let editing = mode != .none
        let pad = PinCallout.padding, shadow = 4.0
        let probe = try CairoCanvas(width: 1, height: 1)
        let maxText = PinCallout.maxWidth - 2 * pad
        func measure(_ text: String, _ f: TextRasterizer.Font) -> Double {
            let l = TextRasterizer.makeLayout(probe.context, text, f, 1)
            defer { g_object_unref(UnsafeMutableRawPointer(l)) }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(l, &ink, &logical)
            return Double(logical.width)
        }
        let shownTitle = editing ? title + "\u{2009}" : title
        let textWidth = min(max(measure(shownTitle, titleFont) + (editing ? 2 : 0), measure(detail, detailFont)), maxText)
        let bubbleW = max(PinCallout.minWidth, (textWidth + 2 * pad).rounded(.up))
        let bubbleH = PinCallout.height - PinCallout.arrowHeight
        // The image holds the bubble and arrow plus room for the shadow on each side.
        let w = bubbleW + 2 * shadow, h = PinCallout.height + shadow
        let canvas = try CairoCanvas(width: Int(saturating: (w * k).rounded()), height: Int(saturating: (h * k).rounded()))
        let cr = canvas.context
        cairo_scale(cr, k, k)
        func bubblePath(_ dx: Double, _ dy: Double) {
            let x = shadow + dx, y = dy, r = 8.0, ax = w / 2 + dx, a = PinCallout.arrowHeight
            cairo_new_path(cr)
            cairo_arc(cr, x + r, y + r, r, .pi, 1.5 * .pi)
            cairo_arc(cr, x + bubbleW - r, y + r, r, 1.5 * .pi, 2 * .pi)
            cairo_arc(cr, x + bubbleW - r, y + bubbleH - r, r, 0, 0.5 * .pi)
            cairo_line_to(cr, ax + a, y + bubbleH)
            cairo_line_to(cr, ax, y + bubbleH + a)
            cairo_line_to(cr, ax - a, y + bubbleH)
            cairo_arc(cr, x + r, y + bubbleH - r, r, 0.5 * .pi, .pi)
            cairo_close_path(cr)
        }
        // A soft shadow: the bubble's outline, stroked wide and faint a few times.
        for (width, alpha) in [(7.0, 0.04), (4.0, 0.06), (2.0, 0.08)] {
            bubblePath(0, 1.5)
            cairo_set_source_rgba(cr, 0, 0, 0, alpha)
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
        }
        bubblePath(0, 0)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.14)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)

        func show(_ text: String, _ f: TextRasterizer.Font, y: Double, ellipsize: Bool, selected: Bool = false) -> Double {
            let l = TextRasterizer.makeLayout(cr, text, f, 1)
            defer { g_object_unref(UnsafeMutableRawPointer(l)) }
            if ellipsize {
                // A long title keeps its end in view while typing, its start otherwise.
                pango_layout_set_width(l, Int32(saturating: maxText * Double(PANGO_SCALE)))
                pango_layout_set_ellipsize(l, editing ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END)
            }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(l, &ink, &logical)
            let x = (w - Double(logical.width)) / 2
            if selected && logical.width > 0 {
                cairo_rectangle(cr, x - 1, y, Double(logical.width) + 2, Double(logical.height))
                cairo_set_source_rgba(cr, 0.0, 0.48, 1.0, 0.25)
                cairo_fill(cr)
            }
            cairo_move_to(cr, x, y)
            cairo_set_source_rgba(cr, f.color.r, f.color.g, f.color.b, 1)
            pango_cairo_show_layout(cr, l)
            return x + Double(logical.width)
        }
        let titleEnd = show(shownTitle, titleFont, y: pad + 1, ellipsize: true, selected: mode == .selectedAll)
        if editing {
            // The caret, and a rule under the title so it reads as a field being edited.
            cairo_set_source_rgba(cr, 0.0, 0.48, 1.0, 1)
            cairo_rectangle(cr, titleEnd - 1, pad + 2, 1.5, PinCallout.titleHeight - 3)
            cairo_fill(cr)
            cairo_rectangle(cr, shadow + pad, pad + PinCallout.titleHeight, bubbleW - 2 * pad, 1)
            cairo_set_source_rgba(cr, 0.0, 0.48, 1.0, 0.5)
            cairo_fill(cr)
        }
        _ = show(detail, detailFont, y: pad + PinCallout.titleHeight + 1, ellipsize: false)
        return canvas.bitmap()
    }
}
