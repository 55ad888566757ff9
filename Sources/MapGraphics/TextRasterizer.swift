import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// Renders text sprites with Pango: a white halo under the glyphs so names stay legible on
/// any background. Each sprite is drawn once per device pixel ratio and then only placed.
public enum TextRasterizer {
    struct Font {
        let family: String
        let size: Double
        let weight: PangoWeight
        let color: Color
        let halo: Double
        var haloColor: Color? = nil
        var italic = false
        /// Extra space between letters, in ems.
        var letterSpacing = 0.0
        /// Wrap at this many ems (0: one line).
        var maxWidth = 0.0
    }

    static func font(_ style: TextStyle, _ s: BasemapStyle) -> Font {
        switch style {
        case .place: return Font(family: "DejaVu Sans", size: 10.5, weight: PANGO_WEIGHT_NORMAL, color: s.label, halo: 2.2)
        case .majorPlace: return Font(family: "DejaVu Sans", size: 11.5, weight: PANGO_WEIGHT_NORMAL, color: s.label, halo: 2.4)
        case .capital: return Font(family: "DejaVu Sans", size: 12, weight: PANGO_WEIGHT_BOLD, color: s.capitalLabel, halo: 2.5)
        case .chrome: return Font(family: "DejaVu Sans", size: 9.5, weight: PANGO_WEIGHT_NORMAL, color: Color(hex: 0x333333), halo: 0)
        case .notice: return Font(family: "DejaVu Sans", size: 12, weight: PANGO_WEIGHT_NORMAL, color: Color(hex: 0xFFFFFF), halo: 0)
        case .callout: return Font(family: "DejaVu Sans", size: 10.5, weight: PANGO_WEIGHT_NORMAL, color: Color(hex: 0x222222), halo: 0)
        case let .styled(l):
            return Font(family: l.family, size: l.size, weight: l.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, color: l.color,
                        halo: l.haloWidth, haloColor: l.haloColor, italic: l.italic, letterSpacing: l.letterSpacing, maxWidth: l.maxWidth)
        }
    }

    /// The text as a premultiplied bitmap at `pixelRatio` device pixels per point.
    public static func render(_ text: String, style: TextStyle, pixelRatio k: Double, basemap: BasemapStyle = .standard) throws -> Bitmap {
        let f = font(style, basemap)
        // Measure on a scratch surface first.
        let probe = try CairoCanvas(width: 1, height: 1)
        let layout = makeLayout(probe.context, text, f, k)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let pad = Int(saturating: (f.halo * k).rounded(.up)) + 1
        let w = max(Int(logical.width), 1) + 2 * pad, h = max(Int(logical.height), 1) + 2 * pad
        let canvas = try CairoCanvas(width: w, height: h)
        let cr = canvas.context
        let drawn = makeLayout(cr, text, f, k)
        defer { g_object_unref(UnsafeMutableRawPointer(drawn)) }
        cairo_move_to(cr, Double(pad - Int(logical.x)), Double(pad - Int(logical.y)))
        if f.halo > 0 {
            pango_cairo_layout_path(cr, drawn)
            canvas.setColor(f.haloColor ?? basemap.labelHalo)
            cairo_set_line_width(cr, 2 * f.halo * k)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
            cairo_move_to(cr, Double(pad - Int(logical.x)), Double(pad - Int(logical.y)))
        }
        canvas.setColor(f.color)
        // On a page, each line one cluster: a PDF reader finds its words whole (PageText).
        if canvas.isRecording, let lines = glyphLines(drawn, x: Double(pad - Int(logical.x)), y: Double(pad - Int(logical.y))) {
            showSearchable(lines, in: cr)
        } else {
            pango_cairo_show_layout(cr, drawn)
        }
        return canvas.bitmap()
    }

    static func makeLayout(_ cr: OpaquePointer, _ text: String, _ f: Font, _ k: Double) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        let desc = pango_font_description_new()!
        pango_font_description_set_family(desc, f.family)
        pango_font_description_set_weight(desc, f.weight)
        if f.italic { pango_font_description_set_style(desc, PANGO_STYLE_ITALIC) }
        pango_font_description_set_absolute_size(desc, f.size * k * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        if f.letterSpacing != 0 {
            let attrs = pango_attr_list_new()
            pango_attr_list_insert(attrs, pango_attr_letter_spacing_new(Int32(saturating: f.letterSpacing * f.size * k * Double(PANGO_SCALE))))
            pango_layout_set_attributes(layout, attrs)
            pango_attr_list_unref(attrs)
        }
        if f.maxWidth > 0 {
            // A style's text-max-width: wrapped at spaces, lines centred on each other.
            pango_layout_set_width(layout, Int32(saturating: f.maxWidth * f.size * k * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
            pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        }
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// How many of `text`'s characters no installed font can draw (drawn as boxes): 0 when
    /// the fonts for its scripts are there.
    public static func missingGlyphs(in text: String, style: TextStyle) -> Int {
        guard let probe = try? CairoCanvas(width: 1, height: 1) else { return 0 }
        let layout = makeLayout(probe.context, text, font(style, .standard), 1)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    /// Loads fontconfig's configuration and font caches (process-wide), so that the first
    /// label drawn on the frame thread does not pay for it.
    public static func warmUp() {
        _ = try? render("Meridian", style: .capital, pixelRatio: 1)
    }

    /// A round dot with a thin light rim: marks a place under its label.
    public static func placeDot(capital: Bool, pixelRatio k: Double, basemap: BasemapStyle = .standard) throws -> Bitmap {
        let d = 5.0, size = Int(saturating: (d + 3) * k + 0.5)
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context
        let c = Double(size) / 2
        cairo_arc(cr, c, c, d / 2 * k, 0, 2 * .pi)
        canvas.setColor(capital ? basemap.capitalLabel : Color(hex: 0x55555F))
        cairo_fill_preserve(cr)
        canvas.setColor(Color(hex: 0xFFFFFF, alpha: 0.9))
        cairo_set_line_width(cr, 1.2 * k)
        cairo_stroke(cr)
        if capital {
            cairo_arc(cr, c, c, d / 5 * k, 0, 2 * .pi)
            canvas.setColor(Color(hex: 0xFFFFFF))
            cairo_fill(cr)
        }
        return canvas.bitmap()
    }
}
